import Synchronization

/// Answers built for one session and kept for its life, so a GET inside a session costs what one
/// outside does.
///
/// A body whose only placeholder is `{{baseURL}}` reads the same on every request of a session
/// (its URL, `…/s/ID`, never changes), so the server builds it once per session and queues it
/// again, as it does the server-wide one. What is kept is the server's (libmicrohttpd responses,
/// opaque here), and the server says how to free each. Entries are tagged with the generation of
/// the responses they were built from: the first lookup after a reload hands the old ones to
/// `retire`, since a request of the old generation may still be about to queue one (it found it
/// before the reload); the server frees them when that generation's last request ends. The rest
/// are freed when the session goes: a request holds its session, so none is using them then
/// (libmicrohttpd counts its references, so one still being sent is freed after it is sent).
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
        /// Takes the responses of a replaced generation (`response(generation:slot:release:retire:make:)`).
        var retire: Release?
        /// Every snapshot published (`current`), the newest last: kept until the cache goes, as a
        /// reader may still be searching an older one. One per response made (and per reload that
        /// a session sees), of a few words each.
        var published: [Snapshot] = []

        /// Gives every response to `free` and forgets them.
        mutating func clear(by free: Release?) {
            if let free { for response in responses { free(OpaquePointer(bitPattern: response)!) } }
            slots = []
            responses = []
        }
    }

    /// What the cache holds at one moment, never changed once published: the request path
    /// searches it without the lock (`cached`).
    private final class Snapshot: Sendable {
        let generation: UInt64
        let slots: [Int]
        let responses: [UInt]

        init(_ entries: Entries) {
            generation = entries.generation
            slots = entries.slots
            responses = entries.responses
        }
    }

    /// Where `slot` is in `slots`, or where it would go.
    private static func position(of slot: Int, in slots: [Int]) -> Int {
        var low = 0
        var high = slots.count
        while low < high {
            let middle = (low &+ high) / 2
            if slots[middle] < slot { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    private let entries = Mutex(Entries())
    /// The newest snapshot (its unretained address; 0 for none), which `entries.published` keeps.
    private let current = Atomic<UInt>(0)

    package init() {}

    /// The response kept for `slot` of responses `generation`, made (and kept) by `make` the
    /// first time; `release` frees one now, `retire` one that a request of its generation may
    /// still be queueing (the server frees it once that generation is no longer served).
    package func response(
        generation: UInt64, slot: Int, release: @escaping Release, retire: @escaping Release, make: () -> OpaquePointer
    ) -> OpaquePointer {
        if let kept = cached(generation: generation, slot: slot) { return kept }
        return entries.withLock { entries in
            if entries.generation != generation {
                // Unpublished before they are freed: no lookup from now on finds them.
                current.store(0, ordering: .releasing)
                entries.clear(by: entries.retire)
                entries.generation = generation
            }
            let position = Self.position(of: slot, in: entries.slots)
            if position < entries.slots.count, entries.slots[position] == slot { return OpaquePointer(bitPattern: entries.responses[position])! }
            let made = make()
            entries.slots.insert(slot, at: position)
            entries.responses.insert(UInt(bitPattern: made), at: position)
            entries.release = release
            entries.retire = retire
            let snapshot = Snapshot(entries)
            entries.published.append(snapshot)
            current.store(UInt(bitPattern: Unmanaged.passUnretained(snapshot).toOpaque()), ordering: .releasing)
            return made
        }
    }

    /// The response kept for `slot` of responses `generation`; nil when there is none yet (or
    /// only one of other responses): then `response(generation:slot:release:make:)`. The request
    /// path's lookup: one atomic load and a search, no lock, no closure.
    package func cached(generation: UInt64, slot: Int) -> OpaquePointer? {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Snapshot>.fromOpaque(address)._withUnsafeGuaranteedRef { snapshot in
            guard snapshot.generation == generation else { return nil }
            let position = Self.position(of: slot, in: snapshot.slots)
            guard position < snapshot.slots.count, snapshot.slots[position] == slot else { return nil }
            return OpaquePointer(bitPattern: snapshot.responses[position])
        }
    }

    /// How many responses are kept (for tests and the memory figures).
    package var count: Int { entries.withLock { $0.slots.count } }

    deinit {
        entries.withLock { $0.clear(by: $0.release) }
    }
}
