#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, blocked and then awaited with `sigwait` on the main thread: reliable,
/// unlike a handler plus `pause()`, and no code runs in signal context.
enum StopSignals {
    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }

    /// Blocks them in the calling thread and in every thread it starts from now on.
    static func blockInThisThread() {
        var set = self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks until one arrives (it must be blocked in every thread); returns its name.
    static func wait() -> String {
        var set = self.set
        var received: Int32 = 0
        sigwait(&set, &received)
        return received == SIGINT ? "SIGINT" : "SIGTERM"
    }
}
