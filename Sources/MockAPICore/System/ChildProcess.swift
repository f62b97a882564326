package import Foundation
import Synchronization

/// A program started with `posix_spawn`, in place of Foundation's `Process`, whose `run()` on
/// Linux reads `/proc/self/fd` past the end of a buffer (swift-corelibs-foundation PR 5472) and
/// so crashes now and then in a process that spawns often from many threads: the test suite on a
/// many-core CI machine, or `diff`'s git checkouts. It keeps `Process`'s shape (the same property
/// names, `Pipe` or `FileHandle` streams, `terminationStatus` the exit code or the signal), and
/// starts its child with every other descriptor closed, a clear signal mask and default signal
/// handlers, whatever the spawning thread had.
///
/// ```swift
/// let git = ChildProcess(URL(fileURLWithPath: "/usr/bin/git"), ["rev-parse", "HEAD"])
/// let output = Pipe()
/// git.standardOutput = output
/// try git.run()
/// let commit = output.fileHandleForReading.readDataToEndOfFile()
/// git.waitUntilExit()
/// ```
package final class ChildProcess: @unchecked Sendable {
    // Why unchecked: the launch settings are set before `run()` by one thread; everything after
    // it (the PID and the exit) is behind `state`.
    package var executableURL: URL
    package var arguments: [String]
    /// Replaces the parent's environment when set.
    package var environment: [String: String]?
    package var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle`, or nil for /dev/null; by default the parent's own.
    package var standardInput: Any? = FileHandle.standardInput
    package var standardOutput: Any? = FileHandle.standardOutput
    package var standardError: Any? = FileHandle.standardError

    private struct State {
        var pid: pid_t = 0
        /// The raw `waitpid` status once the child has been reaped.
        var exit: Int32?
    }

    private let state = Mutex(State())

    package init(_ executableURL: URL = URL(fileURLWithPath: "/usr/bin/env"), _ arguments: [String] = []) {
        self.executableURL = executableURL
        self.arguments = arguments
    }

    package var processIdentifier: pid_t { state.withLock { $0.pid } }

    /// Starts the program; throws a `POSIXError` when it cannot be started (not found, not
    /// executable, no such directory).
    package func run() throws {
        let argv = [executableURL.path] + arguments
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { "\($0.key)=\($0.value)" }
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        let null = FileHandle(forUpdatingAtPath: "/dev/null")
        defer { try? null?.close() }
        for (stream, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            let source: Int32
            switch stream {
            case let pipe as Pipe: source = target == STDIN_FILENO ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            case let handle as FileHandle: source = handle.fileDescriptor
            default: source = null?.fileDescriptor ?? -1
            }
            if source >= 0, source != target { posix_spawn_file_actions_adddup2(&actions, source, target) }
        }
        try Self.closeOtherDescriptors(&actions)
        if let directory = currentDirectoryURL?.path { try Self.changeDirectory(&actions, to: directory) }

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | Self.extraFlags)

        var pid: pid_t = 0
        let result = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, envp) }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        state.withLock { $0.pid = pid }
        // The child holds its own copies now: the parent's ends left open would keep a reader
        // from ever seeing the end of the output.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        if let pipe = standardOutput as? Pipe { try? pipe.fileHandleForWriting.close() }
        if let pipe = standardError as? Pipe, pipe !== standardOutput as? Pipe {
            try? pipe.fileHandleForWriting.close()
        }
    }

    /// True from `run()` until the child has ended.
    package var isRunning: Bool {
        state.withLock { state in
            guard state.pid > 0, state.exit == nil else { return false }
            return !Self.reap(&state, blocking: false)
        }
    }

    /// Waits for the child to end (at once if it has).
    package func waitUntilExit() {
        let pid = processIdentifier
        guard pid > 0 else { return }
        // Waits without reaping, so `isRunning` on another thread never finds the child gone
        // and its status lost; then reaps under the lock.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        _ = state.withLock { Self.reap(&$0, blocking: true) }
    }

    /// SIGTERM, unless the child has already been reaped (its PID may belong to another by then).
    package func terminate() { signal(SIGTERM) }

    package func signal(_ number: Int32) {
        state.withLock { state in
            if state.pid > 0, state.exit == nil { kill(state.pid, number) }
        }
    }

    /// The exit code, or the number of the signal that ended it; call after `waitUntilExit()`.
    package var terminationStatus: Int32 {
        let status = exitStatus
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    package enum TerminationReason: Sendable { case exit, uncaughtSignal }

    /// Whether it exited or a signal ended it; call after `waitUntilExit()`.
    package var terminationReason: TerminationReason { exitStatus & 0x7F == 0 ? .exit : .uncaughtSignal }

    private var exitStatus: Int32 {
        guard let status = state.withLock({ $0.exit }) else { preconditionFailure("the child is still running") }
        return status
    }

    /// Reaps the child if it has ended; true when it has.
    private static func reap(_ state: inout State, blocking: Bool) -> Bool {
        if state.exit != nil { return true }
        var status: Int32 = 0
        while true {
            let result = waitpid(state.pid, &status, blocking ? 0 : WNOHANG)
            if result == state.pid {
                state.exit = status
                return true
            }
            if result == -1, errno == EINTR { continue }
            return false
        }
    }

    #if os(Linux)
    private static let extraFlags: Int16 = 0
    // glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `_addchdir_np` (2.29), which
    // Swift's Glibc module does not declare.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
    private static let addChdir = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }

    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: String) throws {
        guard let addChdir else { throw POSIXError(.ENOSYS) }
        let result = addChdir(&actions, directory)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    }

    private static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        if let addCloseFrom {
            let result = addCloseFrom(&actions, 3)
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
            return
        }
        // An older glibc: close each descriptor open now, as listed in /proc/self/fd.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
    }
    #else
    private static let extraFlags = Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
    private static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t?) throws {}
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t?, to directory: String) throws {
        let result = posix_spawn_file_actions_addchdir_np(&actions, directory)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    }
    #endif
}

/// Calls `body` with `strings` as a NULL-terminated C array, valid only during the call.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let copies = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return body(copies)
}
