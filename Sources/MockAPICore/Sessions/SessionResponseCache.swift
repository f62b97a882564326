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

    /// Sorted by slot, searched by halves: a session keeps a few such answers, and hashing the
    /// slot for a dictionary cost more than the search (about 130 instructions a request).
    private struct Entries {
        var generation: UInt64 = 0
        var slots: [Int] = []
        /// The responses' addresses (`OpaquePointer` is not `Sendable`).
        var responses: [UInt] = []
        var release: Release?

        /// Where `slot` is, or where it would go.
        func position(of slot: Int) -> Int {
            var low = 0
            var high = slots.count
            while low < high {
                let middle = (low + high) / 2
                if slots[middle] < slot { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func clear() {
            if let release { for response in responses { release(OpaquePointer(bitPattern: response)!) } }
            slots = []
            responses = []
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
            let position = entries.position(of: slot)
            if position < entries.slots.count, entries.slots[position] == slot { return OpaquePointer(bitPattern: entries.responses[position])! }
            let made = make()
            entries.slots.insert(slot, at: position)
            entries.responses.insert(UInt(bitPattern: made), at: position)
            entries.release = release
            return made
        }
    }

    /// How many responses are kept (for tests and the memory figures).
    package var count: Int { entries.withLock { $0.slots.count } }

    deinit {
        entries.withLock { $0.clear() }
    }
}
