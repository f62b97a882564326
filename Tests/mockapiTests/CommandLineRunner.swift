import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport

/// Runs the built `mockapi` binary as a user would, from the repository root.
enum CommandLineRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mockapi")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return BundledAPI.root.appendingPathComponent(".build/debug/mockapi")
    }

    /// `environment` is added to the test's own, minus `MOCKAPI_*`, `NO_COLOR` and `TERM`: a
    /// developer's shell must not change what a test sees.
    static func process(_ arguments: [String], environment: [String: String] = [:]) -> (ChildProcess, stdout: Pipe, stderr: Pipe) {
        let process = ChildProcess()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = BundledAPI.root
        process.environment = testEnvironment(adding: environment)
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        return (process, stdout, stderr)
    }

    private static func testEnvironment(adding environment: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKAPI_") && $0.key != "NO_COLOR" && $0.key != "TERM" }.merging(environment) { $1 }
    }

    /// Runs to completion (commands that end by themselves).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let run = try ExternalTool.run(arguments, executable: binary, directory: BundledAPI.root, environment: testEnvironment(adding: environment))
        return Result(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// A `mockapi serve` running until `stop()`.
    final class Server {
        let process: ChildProcess
        let stdout: Pipe
        let stderr: Pipe
        /// The first stdout line.
        private(set) var firstLine: String

        /// `mockapi serve --port 0` and `arguments` (`portZero: false`: only `arguments`), run in
        /// `directory` (the repository root when nil).
        init(_ arguments: [String], environment: [String: String] = [:], portZero: Bool = true, command: String = "serve", directory: URL? = nil) throws {
            (process, stdout, stderr) = CommandLineRunner.process(
                [command] + (portZero ? ["--port", "0"] : []) + arguments,
                environment: environment)
            if let directory { process.currentDirectoryURL = directory }
            try process.run()
            firstLine = ""
            firstLine = nextLine()
        }

        /// Stdout read so far past the lines already returned.
        private var unread = Data()

        /// The next stdout line (waits for it; empty at the end).
        func nextLine() -> String {
            while !unread.contains(0x0A) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                unread += chunk
            }
            let line = unread.prefix { $0 != 0x0A }
            unread = unread.dropFirst(line.count + 1)
            return String(decoding: line, as: UTF8.self)
        }

        var baseURL: String { firstLine.split(separator: " ").dropFirst(3).first.map(String.init) ?? "" }

        /// SIGTERM, then the exit status and everything it wrote to stderr.
        func stop() -> (status: Int32, stderr: String) {
            process.terminate()
            let err = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: err, as: UTF8.self))
        }
    }

    /// A command run until `finish()`, its stdout and stderr in one pipe as a terminal shows them,
    /// read as it comes. Every read blocks until output comes, so the command is stopped after
    /// `limit` seconds whatever happens (its pipe then ends, and the reads with it): a line that
    /// never comes fails the test instead of hanging the suite.
    final class MergedRun {
        let process: ChildProcess
        private let terminal = Pipe()
        private let watchdog: DispatchWorkItem
        /// Everything read so far.
        private(set) var output = Data()
        var text: String { String(decoding: output, as: UTF8.self) }

        init(_ arguments: [String], in directory: URL, limit: TimeInterval = 30) throws {
            (process, _, _) = CommandLineRunner.process(arguments)
            process.currentDirectoryURL = directory
            process.standardOutput = terminal
            process.standardError = terminal
            try process.run()
            watchdog = DispatchWorkItem { [process] in process.terminate() }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        }

        /// Reads until the output holds `text` `count` times (or ends); all of it so far.
        @discardableResult
        func read(until text: String, count: Int = 1) -> String {
            while self.text.components(separatedBy: text).count <= count {
                let chunk = terminal.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output += chunk
            }
            return self.text
        }

        /// SIGTERM, then everything it wrote.
        func finish() -> String {
            watchdog.cancel()
            process.terminate()
            output += terminal.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return text
        }
    }
}
