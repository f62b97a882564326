package import ArgumentParser
import Foundation
package import MockAPICore
import Synchronization

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
package struct ContractOptions: ParsableArguments {
    // A variable stands in for its flag: the flag beats it, it beats the default.
    @Option(help: "Folder of contract files (*.json); $MOCKAPI_CONTRACTS when not given.")
    package var contracts = Self.environment("MOCKAPI_CONTRACTS") ?? Self.defaults.withLock(\.contracts)

    @Option(help: "Folder the contracts' fixture paths are relative to; $MOCKAPI_FIXTURES when not given.")
    package var fixtures = Self.environment("MOCKAPI_FIXTURES") ?? Self.defaults.withLock(\.fixtures)

    /// The folders used when neither flag nor variable names one: `contracts` and `fixtures` in
    /// the working directory, or what a team's gate set (``VerifyGate``).
    static let defaults = Mutex((contracts: "contracts", fixtures: "fixtures"))

    /// A set, non-empty variable.
    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    package init() {}

    /// The loaded set, or the full problem report on stderr and exit code 2.
    package func load() throws -> ContractSet {
        try load { report in
            Output.error(report)
            return ExitCode(2)
        }
    }

    /// The loaded set, or what `unusable` makes of the full problem report.
    package func load(unusable: (String) -> ExitCode) throws -> ContractSet {
        do {
            return try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
        } catch {
            throw unusable(error.description)
        }
    }
}

/// Writing to stdout and stderr without buffering surprises.
package enum Output {
    package enum Stream: Sendable { case standardOutput, standardError }

    /// Where text goes: the process's streams, unless a test captures it for the task it runs
    /// (`Output.$write.withValue({ stream, text in … }) { … }`).
    @TaskLocal package static var write: @Sendable (Stream, String) -> Void = { stream, text in
        // `try?`: a stream that has gone (a closed terminal after SIGHUP) must not stop the
        // process before it has saved and cleaned up; `write(_:)` traps on the error.
        try? (stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError).write(contentsOf: Data(text.utf8))
    }

    package static func line(_ text: String) {
        write(.standardOutput, text + "\n")
    }

    package static func error(_ text: String) {
        write(.standardError, text + "\n")
    }
}
