import Synchronization

/// Answers built for one session and kept for its life, so a GET inside a session costs what one
/// outside does.
///
/// A body whose only placeholder is `{{baseURL}}` reads the same on every request of a session
/// (its URL, `…/s/ID`, never changes), so the server builds it once per session and queues it
/// again, as it does the server-wide one. What is kept is the server's (libmicrohttpd responses,
/// opaque here), and the server says how to free each. Entries are tagged with the generation of
/// the responses they were built from: the first lookup after a reload frees the old ones; the
/// rest go when the session does (libmicrohttpd counts its references, so one still being sent is
/// freed after it is sent).
package final class SessionResponseCache: Sendable {
    package typealias Release = @Sendable (OpaquePointer) -> Void

    private struct Entries {
        var generation: UInt64 = 0
        var bySlot: [Int: OpaquePointer] = [:]
        var release: Release?

        mutating func clear() {
            if let release { for response in bySlot.values { release(response) } }
            bySlot = [:]
        }
    }

    private let entries = Mutex(Entries())

    package init() {}

    /// The response kept for `slot` of responses `generation`, made (and kept) by `make` the
    /// first time; `release` frees one the server no longer needs.
    package func response(generation: UInt64, slot: Int, release: @escaping Release, make: () -> OpaquePointer) -> OpaquePointer {
        entries.withLock { entries in
            if entries.generation != generation {
                entries.clear()
                entries.generation = generation
            }
            if let kept = entries.bySlot[slot] { return kept }
            let made = make()
            entries.bySlot[slot] = made
            entries.release = release
            return made
        }
    }

    /// How many responses are kept (for tests and the memory figures).
    package var count: Int { entries.withLock { $0.bySlot.count } }

    deinit {
        entries.withLock { $0.clear() }
    }
}
