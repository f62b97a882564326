package import Foundation
import MockAPICore
import Synchronization

/// Decodes `verify --variants`' rare answers in a child process, so a decoder that traps on one
/// (`images.first!` on an empty array, an `Int32(exactly:)!`, a `fatalError` in `init(from:)`)
/// ends the child, not the run: the variant in flight is reported as a crash with its signal,
/// and a fresh child takes the next one.
///
/// The child is the gate's own executable started again (posix_spawn and exec, as every
/// `ChildProcess`) with `MOCKAPI_DECODING_CHILD=1`: it parses the same arguments, loads the same
/// contracts, makes the same checks, then answers decode requests on its stdin instead of running.
/// Not `fork()`: a gate is multithreaded (URLSession, the in-process server, Swift's pool), and
/// a forked copy may only call async-signal-safe functions, which a decoder does not (malloc,
/// locks, Foundation); macOS's libdispatch refuses outright. Not a signal handler that jumps back
/// either: Swift has no unwinding, and the trapped decoder's locks and memory would stay taken.
/// A re-executed child is the same on Linux and macOS and costs one process start per crash.
package final class DecodingChild: Sendable {
    /// Set in the child's environment: this process serves decode requests instead of running.
    package static let environmentKey = "MOCKAPI_DECODING_CHILD"

    /// How to start a child that serves the same checks.
    package struct Launch: Sendable {
        package var executable: URL
        package var arguments: [String]
        package var environment: [String: String]

        package init(executable: URL, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.executable = executable
            self.arguments = arguments
            // No crash backtrace: a trapping decoder is an expected outcome here, and Linux's
            // symbolicating backtracer would take seconds per crash. The fatal error line stays.
            self.environment = environment.merging([DecodingChild.environmentKey: "1", "SWIFT_BACKTRACE": "enable=no"]) { _, new in new }
        }

        /// This executable again, with this process's arguments: what a gate's `main` passes.
        package static func thisExecutable() -> Launch? {
            #if os(Linux)
            guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
            let executable = URL(fileURLWithPath: path)
            #else
            guard let executable = Bundle.main.executableURL else { return nil }
            #endif
            return Launch(executable: executable, arguments: Array(CommandLine.arguments.dropFirst()))
        }
    }

    /// What became of one decode.
    package enum Outcome: Sendable, Equatable {
        case decoded
        /// The decoder threw: its error, as the runner words one.
        case refused(String)
        /// The child ended while decoding: the signal's name (`SIGILL`), or `exit 3`, and the last
        /// thing it wrote to stderr (Swift's `Fatal error: ...` line). Or it gave no answer in
        /// `DecodingChild.timeout` and was killed.
        case crashed(how: String, message: String)
        /// No child could decode it (it would not start, or knows no such route): decode in process.
        case unavailable
    }

    private struct Running {
        var process: ChildProcess
        var requests: Pipe
        var replies: Pipe
        var channel: DecodingChannel
        var stderr: StderrTail
    }

    private struct State {
        var running: Running?
        /// Why no child could be started; once set, the run decodes in process.
        var unusable: String?
    }

    private let launch: Launch
    private let state = Mutex(State())
    /// How long one decode may take before the child is taken to hang (an endless loop in a
    /// decoder): a run must end. Seconds; a decode takes microseconds.
    package let timeout: Double

    package init(_ launch: Launch, timeout: Double = 10) {
        self.launch = launch
        self.timeout = timeout
    }

    /// Why the variants were decoded in process after all, for the report's notes.
    package var unusable: String? { state.withLock { $0.unusable } }

    /// Decodes `body` with the decoder route `route` declares for `response`, in the child.
    package func decode(route: String, response: String, body: Data) -> Outcome {
        state.withLock { state in
            guard state.unusable == nil else { return .unavailable }
            // One retry: a child that went between two requests (nothing of ours was in flight).
            for _ in 0..<2 {
                if state.running == nil {
                    do { state.running = try start() } catch {
                        state.unusable = "the decoding child could not start (\(launch.executable.path)): \(error)"
                        return .unavailable
                    }
                }
                guard var running = state.running else { return .unavailable }
                guard running.channel.send([Array(route.utf8), Array(response.utf8), Array(body)]) else {
                    Self.end(running)
                    state.running = nil
                    continue
                }
                running.channel.timeout = Int32(timeout * 1000)
                guard let reply = running.channel.receive(2) else {
                    // The child ended with our request in flight: the decoder crashed on it, or hangs.
                    state.running = nil
                    if running.channel.timedOut {
                        running.process.signal(SIGKILL)
                        let crash = Self.crash(of: running)
                        guard case .crashed(_, let message) = crash else { return crash }
                        return .crashed(how: "no answer in \(Self.seconds(timeout)), killed", message: message)
                    }
                    return Self.crash(of: running)
                }
                state.running = running
                switch String(decoding: reply[0], as: UTF8.self) {
                case "ok": return .decoded
                case "refused": return .refused(String(decoding: reply[1], as: UTF8.self))
                default: return .unavailable
                }
            }
            return .unavailable
        }
    }

    /// Ends the child (it exits at the end of its stdin) and waits for it.
    package func stop() {
        state.withLock { state in
            if let running = state.running { Self.end(running) }
            state.running = nil
        }
    }

    private func start() throws -> Running {
        // A child that has gone must not kill the gate with SIGPIPE on the next request's write:
        // the write fails with EPIPE instead, and the request goes to a fresh child.
        signal(SIGPIPE, SIG_IGN)
        let process = ChildProcess(launch.executable, launch.arguments)
        process.environment = launch.environment
        let requests = Pipe(), replies = Pipe(), stderr = Pipe()
        process.standardInput = requests
        process.standardOutput = replies
        process.standardError = stderr
        try process.run()
        var channel = DecodingChannel(input: replies.fileHandleForReading.fileDescriptor, output: requests.fileHandleForWriting.fileDescriptor)
        let tail = StderrTail(stderr)
        // Loading a large contract set takes a while, but not for ever.
        channel.timeout = 120_000
        guard let ready = channel.receive(1), ready == [Array("ready".utf8)] else {
            if channel.timedOut { process.signal(SIGKILL) }
            try? requests.fileHandleForWriting.close()
            process.waitUntilExit()
            tail.waitForEnd()
            let said = tail.lastLine.map { ": \($0)" } ?? ""
            throw Refusal(description: "it ended before serving (\(Self.how(process)))\(said)")
        }
        return Running(process: process, requests: requests, replies: replies, channel: channel, stderr: tail)
    }

    private struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    private static func end(_ running: Running) {
        try? running.requests.fileHandleForWriting.close()
        running.process.waitUntilExit()
        try? running.replies.fileHandleForReading.close()
    }

    private static func crash(of running: Running) -> Outcome {
        running.process.waitUntilExit()
        running.stderr.waitForEnd()
        try? running.requests.fileHandleForWriting.close()
        try? running.replies.fileHandleForReading.close()
        return .crashed(how: how(running.process), message: running.stderr.lastLine ?? "")
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// `SIGILL` (a Swift trap on x86_64), `SIGTRAP` (on arm64), ..., or `exit 3`.
    private static func how(_ process: ChildProcess) -> String {
        let status = process.terminationStatus
        guard process.terminationReason == .uncaughtSignal else { return "exit \(status)" }
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
            SIGTERM: "SIGTERM",
        ]
        return names[status].map { "\($0) (signal \(status))" } ?? "signal \(status)"
    }
}

/// The last few KB a child wrote to stderr, read on a thread of its own so that a chatty decoder
/// never fills the pipe and stalls.
private final class StderrTail: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let ended = DispatchSemaphore(value: 0)
    private static let keep = 4096

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            let descriptor = handle.fileDescriptor
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { bytes in
                    bytes += chunk[..<count]
                    if bytes.count > Self.keep { bytes.removeFirst(bytes.count - Self.keep) }
                }
            }
            try? handle.close()
            ended.signal()
        }
    }

    /// After the child has ended: until its stderr is read to the end (a second at most).
    func waitForEnd() { _ = ended.wait(timeout: .now() + 1) }

    /// Swift's `Fatal error: ...` line if there is one, else the last line written.
    var lastLine: String? {
        let text = String(decoding: bytes.withLock { $0 }, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let line = lines.last { $0.contains("Fatal error") } ?? lines.last
        return line.map { String($0.prefix(300)) }
    }
}
