import Foundation
import Testing

@testable import MockAPICore

/// `EnvironmentVariable` reads one variable with `getenv`; Foundation's
/// `ProcessInfo.processInfo.environment` (the dictionary it replaced) is the oracle. The test
/// process's own environment is read, never changed: `setenv` while other tests' threads read
/// the environment is a data race.
struct EnvironmentVariableTests {
    @Test func everyVariableOfThisProcessReadsAsFoundationReadsIt() {
        let environment = ProcessInfo.processInfo.environment
        #expect(environment.count > 3, "the test runs with some environment: PATH, HOME…")
        for (name, value) in environment {
            #expect(EnvironmentVariable.value(name) == value, "\(name)")
            #expect(EnvironmentVariable.nonEmpty(name) == (value.isEmpty ? nil : value), "\(name)")
        }
    }

    @Test func aVariableThatIsNotSetIsNil() {
        let environment = ProcessInfo.processInfo.environment
        for name in ["MOCKAPI_NOT_SET_\(UInt64.random(in: 0 ... .max))", "mockapi-not-set", "É_NOT_SET"] where environment[name] == nil {
            #expect(EnvironmentVariable.value(name) == nil)
            #expect(EnvironmentVariable.nonEmpty(name) == nil)
        }
    }
}
