import Synchronization

/// The items of every resource collection, kept in memory: what create-then-read flows write and
/// read back. A collection is one resource at one path (`/v1/projects/7/comments` and
/// `/v1/projects/8/comments` are two), seeded with the list fixture's items when first used.
/// Thread-safe; one per server, emptied with the scenarios.
package final class ResourceStore: Sendable {
    /// The most items one collection keeps, and the most collections: a mock's state stays
    /// small whatever a client sends.
    package static let maxItems = 10_000
    package static let maxCollections = 1_000

    struct Collection {
        var items: [JSONValue]
        /// The largest numeric id so far: sequential ids go on from it.
        var lastID: Int
    }

    private let collections = Mutex<[String: Collection]>([:])

    package init() {}

    /// Back to the seeds: every collection is made again when next used.
    package func reset() {
        collections.withLock { $0.removeAll() }
    }

    /// Runs `change` on the collection `key`, made from `seed` when new; nil when the store
    /// already holds `maxCollections` others.
    func withCollection<Result>(_ key: String, seed: [JSONValue], idKey: String, _ change: (inout Collection) -> Result) -> Result? {
        collections.withLock { collections in
            if collections[key] == nil {
                guard collections.count < Self.maxCollections else { return nil }
                let ids = seed.compactMap { $0.objectValue?[idKey].flatMap(ResourceID.number) }
                collections[key] = Collection(items: seed, lastID: ids.max() ?? 0)
            }
            return change(&collections[key]!)
        }
    }
}

/// An item's id as the path spells it, and the next sequential one.
enum ResourceID {
    /// The id's text, as a request path carries it.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .int(let number): String(number)
        case .string(let text): text
        default: nil
        }
    }

    /// A numeric id (an integer, or a string of digits), for the sequence to go on from.
    static func number(_ value: JSONValue) -> Int? {
        switch value {
        case .int(let number): number
        case .string(let text): Int(text)
        default: nil
        }
    }
}
