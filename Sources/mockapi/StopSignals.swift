import Dispatch
import Foundation
import MockAPICommandKit
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, blocked in every thread and taken with `sigwait` by one thread of their
/// own: reliable, unlike a handler plus `pause()`, and no code runs in signal context.
///
/// The thread starts before the contracts load, so a signal during a long load ends the process
/// at once (128 + the signal's number, like a shell); once serving, it hands the signal to
/// `wait()`, and the server stops gracefully.
enum StopSignals {
    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        // A closed terminal or SSH session: taken as SIGTERM, so `record` saves what it has and
        // the temporary folders (a self-signed key, an import) are removed, not left behind.
        sigaddset(&set, SIGHUP)
        return set
    }

    private enum Phase { case loading, serving }
    private static let phase = Mutex(Phase.loading)
    private static let received = Mutex<String?>(nil)
    private static let arrived = DispatchSemaphore(value: 0)

    /// Blocks them in the calling thread and in every thread it starts from now on.
    static func blockInThisThread() {
        var set = self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that takes them (they must be blocked in every thread already).
    static func startWatching() {
        Thread.detachNewThread {
            var set = self.set
            var signal: Int32 = 0
            sigwait(&set, &signal)
            // After a hangup the terminal may be gone: writing to it must fail quietly (EPIPE),
            // not end the process before it has saved and cleaned up.
            if signal == SIGHUP { Foundation.signal(SIGPIPE, SIG_IGN) }
            let name = signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "SIGTERM"
            let serving = phase.withLock { $0 == .serving }
            guard serving else {
                Output.log(.info, "mockapi: \(name) while loading the contracts, stopped")
                exit(128 + signal)
            }
            received.withLock { $0 = name }
            arrived.signal()
        }
    }

    /// From now on a signal is handed to `wait()` instead of ending the process.
    static func beginServing() {
        phase.withLock { $0 = .serving }
    }

    /// Blocks until one arrives after `beginServing()`; returns its name.
    static func wait() -> String {
        arrived.wait()
        return received.withLock { $0 } ?? "SIGTERM"
    }
}
