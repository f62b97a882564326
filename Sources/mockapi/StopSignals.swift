#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, blocked and then awaited with `sigwait` on the main thread: reliable,
/// unlike a handler plus `pause()`, and no code runs in signal context.
struct StopSignals {
    private var set = sigset_t()

    static func block() -> StopSignals {
        var signals = StopSignals()
        sigemptyset(&signals.set)
        sigaddset(&signals.set, SIGINT)
        sigaddset(&signals.set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals.set, nil)
        return signals
    }

    /// Blocks until one arrives; returns its name.
    func wait() -> String {
        var set = self.set
        var received: Int32 = 0
        sigwait(&set, &received)
        return received == SIGINT ? "SIGINT" : "SIGTERM"
    }
}
