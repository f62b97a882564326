import Synchronization

/// The last `capacity` requests, oldest first, shared by all server threads.
///
/// A ring under a `Mutex`: appending is O(1) and never allocates once the ring is full,
/// so recording stays cheap on the request path.
public final class RequestJournal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        var start = 0
        var nextID = 1
    }

    public let capacity: Int
    private let ring: Mutex<Ring> = Mutex(Ring())

    public init(capacity: Int) {
        precondition(capacity > 0, "a journal needs room for at least one entry")
        self.capacity = capacity
    }

    public func record(_ entry: JournalEntry) {
        var entry = entry
        ring.withLock { ring in
            entry.id = ring.nextID
            ring.nextID += 1
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.start] = entry
                ring.start = (ring.start + 1) % capacity
            }
        }
    }

    /// Every entry held, oldest first.
    public func entries() -> [JournalEntry] {
        ring.withLock { ring in Array(ring.entries[ring.start...] + ring.entries[..<ring.start]) }
    }

    public func reset() {
        ring.withLock { ring in
            ring.entries.removeAll(keepingCapacity: true)
            ring.start = 0
        }
    }
}
