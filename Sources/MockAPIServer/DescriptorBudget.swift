import Foundation
import SystemLibc

/// How many connections the process's descriptor limit leaves room for. Past that limit,
/// `accept` fails with EMFILE and libmicrohttpd 0.9.75 tries again at once, for ever (99 % of a
/// core under `ulimit -n 64`). Given a connection limit it can hold, it stops listening at the
/// limit instead and listens again as connections close.
package enum DescriptorBudget {
    /// Kept free beside the connections: a reload's contract and fixture files, the journal's
    /// export, a proxied request's socket, a watcher.
    static let reserved = 32
    /// RLIM_INFINITY, which Swift cannot import from glibc's macro (-1 as an unsigned number).
    private static let unlimited = rlim_t.max

    /// The connection limit to give libmicrohttpd: `wanted`, or what the descriptor limit leaves
    /// room for (at least 1). The soft limit is first raised toward the hard one to fit `wanted`,
    /// as servers do.
    package static func connectionLimit(wanted: Int) -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return wanted }
        let needed = rlim_t(wanted + reserved + openDescriptors())
        if limits.rlim_cur != unlimited, limits.rlim_cur < needed {
            var raised = limits
            raised.rlim_cur = limits.rlim_max == unlimited ? needed : min(needed, limits.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        guard limits.rlim_cur != unlimited else { return wanted }
        let room = Int(clamping: limits.rlim_cur) - reserved - openDescriptors()
        return max(1, min(wanted, room))
    }

    /// The soft descriptor limit now (for the warning that names it).
    package static var softLimit: Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0, limits.rlim_cur != unlimited else { return Int.max }
        return Int(clamping: limits.rlim_cur)
    }

    /// Descriptors open in this process now (Linux lists them in /proc/self/fd; elsewhere a guess).
    private static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 16
    }
}
