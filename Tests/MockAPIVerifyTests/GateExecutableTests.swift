import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// The README's gate executable (Tests/ContractGate, on ``VerifyGate``), run as CI runs it:
/// from another working directory, it names itself and finds its package's contracts.
@Suite struct GateExecutableTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func gate(_ arguments: [String]) throws -> Run {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("contract-gate")
        let binary = FileManager.default.isExecutableFile(atPath: beside.path) ? beside : BundledAPI.root.appendingPathComponent(".build/debug/contract-gate")
        let process = ChildProcess()
        process.executableURL = binary
        process.arguments = arguments
        // A folder of its own, empty: in the temporary folder itself, a clone that lies there would
        // be the working directory's child, and the gate would name its contracts by a relative path.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("gate-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        process.currentDirectoryURL = elsewhere
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKAPI_") }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func helpNamesTheGateAndItsPackagesContracts() throws {
        let help = try gate(["--help"])

        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: contract-gate [--contracts <contracts>]"), "\(help.stdout)")
        // The help wraps at 80 columns, so a long checkout path can break the line after "default:".
        let unwrapped = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(unwrapped.contains("(default: \(BundledAPI.contracts.path))"), "\(help.stdout)")
    }

    @Test func reportAndJUnitCarryTheGatesName() throws {
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }

        let run = try gate(["--strict", "--junit", junit.path])

        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("contract-gate: 5 routes against in-process server http://127.0.0.1:"), "\(run.stdout)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="contract-gate" tests="5" failures="0""#))
        #expect(xml.contains(#"classname="contract-gate.routes""#))
    }

    @Test func unusableInputIsSaidInTheGatesName() throws {
        let run = try gate(["--contract", "no_such"])

        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("contract-gate: --contract names no contract in \(BundledAPI.contracts.path)/: no_such"), "\(run.stderr)")
    }
}
