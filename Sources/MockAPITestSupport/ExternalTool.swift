package import Foundation
import MockAPICore

/// Another program run by a test, usually a second implementation to check ours against (curl,
/// python3, sha256sum, openssl, git): found on `PATH` through `/usr/bin/env` unless an
/// executable is given, its stdout and stderr read whole and at once (neither pipe can fill and
/// stall it).
///
/// ```swift
/// let run = try ExternalTool.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url])
/// #expect(run.stdout == "200")
/// ```
package enum ExternalTool {
    /// A run that has ended.
    package struct Run: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        /// Stdout, then stderr: for checks that look for a message in either.
        package var output: String { stdout + stderr }
    }

    /// Runs `arguments` to its end: `arguments[0]` looked up on `PATH`, or `executable` with all
    /// of `arguments`. `input` is written to its stdin and closed; `environment` replaces the
    /// test's own when given.
    package static func run(
        _ arguments: [String], executable: URL? = nil, input: Data? = nil, directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Run {
        let process = make(arguments, executable: executable, directory: directory, environment: environment)
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        if input != nil { process.standardInput = stdin }
        try process.run()
        // Stderr read on its own thread while stdout is read here: a tool that fills one pipe
        // while the test waits on the other would never end.
        let errors = ReadToEnd(stderr.fileHandleForReading)
        if let input {
            try stdin.fileHandleForWriting.write(contentsOf: input)
            try stdin.fileHandleForWriting.close()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self))
    }

    /// Starts a server-like tool and waits for its first stdout line (its address, usually);
    /// it runs until `stop()`.
    package static func start(_ arguments: [String], directory: URL? = nil) throws -> Running {
        try Running(make(arguments, executable: nil, directory: directory, environment: nil))
    }

    /// A tool started by `start`, stopped by its own PID.
    package final class Running: @unchecked Sendable {
        // Why unchecked: the process is started in init and only stopped after; Foundation's
        // Process is not Sendable.
        private let process: ChildProcess
        /// The first line it printed, without its newline (empty if it ended first).
        package let firstLine: String

        fileprivate init(_ process: ChildProcess) throws {
            self.process = process
            let stdout = Pipe()
            process.standardOutput = stdout
            try process.run()
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            firstLine = String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self)
        }

        /// Sends `signal`, then waits for the end. SIGKILL by default: a child of the test process
        /// may inherit a mask that blocks SIGTERM.
        package func stop(signal: Int32 = SIGKILL) {
            guard process.isRunning else { return }
            process.signal(signal)
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    private static func make(_ arguments: [String], executable: URL?, directory: URL?, environment: [String: String]?) -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = executable ?? URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        return process
    }
}

/// A pipe read to its end on a thread of its own.
private final class ReadToEnd: @unchecked Sendable {
    // Why unchecked: `data` is written once on the reading thread, read after `done` is signalled.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
