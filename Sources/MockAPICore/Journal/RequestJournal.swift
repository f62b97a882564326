import Synchronization

/// The newest `capacity` requests, oldest first, recorded from every server thread.
///
/// Each thread appends to its own shard under its own lock, so two workers never contend on
/// the request path (one shared lock cost about a tenth of the throughput on two cores);
/// reading merges the shards by id. On every append a shard also drops its own records that
/// are no longer among the newest `capacity` overall, so together the shards hold about
/// `capacity` records however the requests spread over threads.
///
/// Records are stored as bytes (`RecordArena`) and turned into `JournalEntry` values only when
/// the journal is read, which is rare next to recording.
public final class RequestJournal: Sendable {
    private final class Shard: Sendable {
        let arena = Mutex(RecordArena())
    }

    public let capacity: Int
    /// The most bytes of records the journal holds; each shard keeps to an equal share, so no
    /// worker reads another's counter on the request path.
    public let maxBytes: Int
    /// Which headers are journaled as `[redacted]` (none with `--journal-secrets`).
    public let redaction: HeaderRedaction
    private let shards: [Shard]
    private let nextID = Atomic<Int>(1)

    public init(capacity: Int, maxBytes: Int = 64 * 1024 * 1024, redaction: HeaderRedaction = .standard, shards: Int = 8) {
        precondition(capacity > 0, "a journal needs room for at least one entry")
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.redaction = redaction
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Records one request. `path` is the request path's bytes; everything is copied.
    public func record(receivedAt: Int64, method: String, path: UnsafeRawBufferPointer,
                       query: [(name: String, value: String?)], headers: HeaderFields, bodyBytes: Int,
                       parts: [ReceivedPart], contract: String?, response: String?, status: Int, problem: String? = nil) {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let headers = headers.forJournal(redacting: redaction)
        // The field order here is the record format; `JournalEntry.init(id:record:)` reads it back.
        func encode(_ writer: inout RecordWriter) {
            writer.int(id)
            writer.int(Int(receivedAt))
            writer.int(status)
            writer.int(bodyBytes)
            writer.string(method)
            writer.bytes(path)
            writer.int(query.count)
            for (name, value) in query {
                writer.string(name)
                writer.optionalString(value)
            }
            headers.withPackedBytes { writer.bytes($0) }
            writer.optionalString(contract)
            writer.optionalString(response)
            writer.int(parts.count)
            for part in parts {
                writer.string(part.name)
                writer.optionalString(part.filename)
                writer.optionalString(part.contentType)
                writer.int(part.bytes)
                writer.string(part.sha256)
            }
            writer.optionalString(problem)
        }
        var measure = RecordWriter.measuring
        encode(&measure)
        shards[ThreadSlot.current % shards.count].arena.withLock { arena in
            arena.append(id: id, size: measure.size, dropThrough: id - capacity, maxCount: capacity, maxBytes: maxBytes / shards.count) { base in
                var writer = RecordWriter(base: base)
                encode(&writer)
            }
        }
    }

    /// The newest `capacity` entries, oldest first.
    public func entries() -> [JournalEntry] {
        entries(matching: JournalQuery())
    }

    /// The entries `query` asks for, oldest first. Records at or before `since` are skipped by
    /// id without being decoded, so a reader that pages forward pays for new entries only.
    public func entries(matching query: JournalQuery) -> [JournalEntry] {
        if query.limit == 0 { return [] }
        let oldestKept = lastID - capacity
        let after = max(query.since ?? 0, oldestKept)
        var all: [JournalEntry] = []
        for shard in shards {
            shard.arena.withLock { arena in
                // A shard holds its records in id order, so past `limit` matches it has no earlier ones.
                var matches = 0
                arena.forEach { id, bytes in
                    guard id > after else { return true }
                    let entry = JournalEntry(record: bytes)
                    guard query.admits(entry) else { return true }
                    all.append(entry)
                    matches += 1
                    return matches < (query.limit ?? .max)
                }
            }
        }
        all.sort { $0.id < $1.id }
        if let limit = query.limit, all.count > limit { all.removeLast(all.count - limit) }
        return all
    }

    /// The id of the newest request recorded so far (0 before the first); ids are never reused,
    /// not even after `reset`.
    public var lastID: Int { nextID.load(ordering: .relaxed) - 1 }

    public func reset() {
        for shard in shards {
            shard.arena.withLock { $0 = RecordArena() }
        }
    }
}

extension JournalEntry {
    /// Reads a record written by `RequestJournal.record`.
    init(record bytes: UnsafeRawBufferPointer) {
        var reader = RecordReader(bytes)
        let id = reader.int()
        let receivedAt = Int64(reader.int())
        let status = reader.int()
        let bodyBytes = reader.int()
        let method = reader.string()
        let path = reader.string()
        let query = (0..<reader.int()).map { _ in (name: reader.string(), value: reader.optionalString()) }
        let headers = HeaderFields(packed: reader.bytes())
        let contract = reader.optionalString()
        let response = reader.optionalString()
        let parts = (0..<reader.int()).map { _ in
            ReceivedPart(name: reader.string(), filename: reader.optionalString(), contentType: reader.optionalString(),
                         bytes: reader.int(), sha256: reader.string())
        }
        let problem = reader.optionalString()
        self.init(receivedAt: receivedAt, method: method, path: path, query: Self.encodeQuery(query), headers: headers,
                  bodyBytes: bodyBytes, parts: parts, contract: contract, response: response, status: status, problem: problem)
        self.id = id
    }
}
