import Synchronization

/// The newest requests, oldest first, recorded from every server thread: at most `capacity` of
/// them and at most `maxBytes` of records, the oldest dropped first, so the ids held are always
/// one unbroken run ending at the newest.
///
/// Each thread appends to its own shard under its own lock, so two workers never contend on
/// the request path (one shared lock cost about a tenth of the throughput on two cores);
/// reading merges the shards by id. The byte budget is one counter for all shards: a request
/// adds its record's size to it, and the one that finds it spent evicts for everyone, by id
/// across the shards, a thirty-second of the budget at a time (so it is rare: a lock per shard,
/// briefly, once every few dozen requests).
///
/// Records are stored as bytes (`RecordArena`) and turned into `JournalEntry` values only when
/// the journal is read, which is rare next to recording.
package final class RequestJournal: Sendable {
    private final class Shard: Sendable {
        let arena: Mutex<RecordArena>

        init(reserve: ShardReserve) {
            arena = Mutex(RecordArena(reserve: reserve.bytes, slotReserve: reserve.records))
        }
    }

    /// What each shard's arena grows to when it first outgrows its start (`reserving`).
    private struct ShardReserve {
        var bytes = 0
        var records = 0
    }

    package let capacity: Int
    /// The most bytes of records the journal holds, over all its shards.
    package let maxBytes: Int
    /// Which headers are journaled as `[redacted]` (none with `--journal-secrets`).
    package let redaction: HeaderRedaction
    private let shards: [Shard]
    private let reserve: ShardReserve
    /// The same shards, unretained, for `record` to borrow (`shards` keeps them): reading a class
    /// out of an array retained and released it on every request.
    private let borrowedShards: [Unmanaged<Shard>]
    private let nextID = Atomic<Int>(1)
    /// Bytes of the records held plus those being copied in: what the budget is checked against.
    private let heldBytes = Atomic<Int>(0)
    /// The newest id evicted to keep within `maxBytes`. Raised before the shards drop those ids,
    /// so a record still being copied when its id is evicted is dropped too, not kept as a hole.
    private let bytesEvictedThrough = Atomic<Int>(0)
    /// The newest id when the journal was last cleared (`reset`).
    private let clearedThrough = Atomic<Int>(0)
    /// Held by the one request that evicts; others that find the budget spent wait for it.
    private let evicting = Mutex(())

    /// Requests a journal keeps, and bytes of them at most, unless told otherwise (`--journal-size`,
    /// `--journal-bytes`): the one place these defaults are written.
    package static let defaultCapacity = 10_000
    package static let defaultMaxBytes = 64 * 1024 * 1024

    /// `reserving`: a shard that outgrows its start (16 KiB, 16 records) grows at once to room for
    /// its share of the budget (up to 1 MiB of records and 2,048 of them), so the next thousands
    /// of requests pay for no chain of doublings (each copies everything held so far; about 300
    /// instructions a request while a journal fills). A shard never written to keeps its small
    /// start, so an idle session costs what it did; a buffer that large is mapped, its pages
    /// touched only as records are written.
    package init(
        capacity: Int = defaultCapacity, maxBytes: Int = defaultMaxBytes, redaction: HeaderRedaction = .standard, shards: Int = 8,
        reserving: Bool = false
    ) {
        precondition(capacity > 0, "a journal needs room for at least one entry")
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.redaction = redaction
        let shardCount = max(1, shards)
        var reserve = ShardReserve()
        if reserving {
            reserve.bytes = max(reserve.bytes, min(maxBytes / shardCount, 1024 * 1024))
            // A record takes 256 bytes at the least: no more slots than the bytes can fill.
            reserve.records = max(reserve.records, min(capacity, maxBytes / 256, 2048))
        }
        self.reserve = reserve
        self.shards = (0..<shardCount).map { _ in Shard(reserve: reserve) }
        borrowedShards = self.shards.map { Unmanaged.passUnretained($0) }
    }

    /// Records one request. Only its bytes are copied: journaling a request allocates nothing
    /// (`JournaledRequest` says how it is lent).
    package func record(_ request: borrowing JournaledRequest) {
        record(
            receivedAt: request.receivedAt, method: request.method, path: request.path, query: request.query, headers: request.headers,
            bodyBytes: request.bodyBytes, parts: request.parts, contract: request.contract, response: request.response,
            status: request.status, problem: request.problem, threadSlot: request.threadSlot)
    }

    /// `record(_:)` with the request's fields spread out, for the server's request path: a
    /// `JournaledRequest` built there and handed across the module boundary was copied whole (a
    /// retain and a release per field, and the struct's value witnesses: about 600 instructions a
    /// request more, measured with `scripts/bench/instructions`, even marked `@inlinable`), while
    /// these arguments are passed borrowed. The fields are `JournaledRequest`'s, in its order.
    package func record(
        receivedAt: Int64, method: String, path: UnsafeRawBufferPointer, query: [QueryArgument], headers: HeaderFields, bodyBytes: Int,
        parts: [ReceivedPart], contract: UnsafeRawBufferPointer?, response: UnsafeRawBufferPointer?, status: Int, problem: String?,
        threadSlot: Int
    ) {
        // Copied only when a header is redacted or cut; most requests' go in as they came.
        let changed = headers.withPackedBytes { HeaderFields.journaledCopyIfChanged(packed: $0, redacting: redaction) }
        // Credentials in the query (`?access_token=…`) redacted as headers are. Nil without a
        // query, and only then read: a request with none pays nothing for it.
        let journaledQuery = query.isEmpty ? nil : redaction.journaledQuery(query)
        @inline(__always) func encode<Sink: RecordSink>(_ sink: inout Sink, id: Int) {
            @inline(__always) func write(headers: borrowing HeaderFields) {
                JournalRecordLayout.write(
                    id: id, receivedAt: receivedAt, status: status, bodyBytes: bodyBytes, method: method, path: path,
                    query: journaledQuery, headers: headers, contract: contract, response: response, parts: parts, problem: problem,
                    to: &sink)
            }
            if let changed { write(headers: changed) } else { write(headers: headers) }
        }
        var sizer = RecordSizer()
        encode(&sizer, id: 0)
        append(size: sizer.size, threadSlot: threadSlot) { writer, id in encode(&writer, id: id) }
    }

    /// `record(receivedAt:…)` for the server's most common request: one answered from its head
    /// (`RequestHandler.answerAtHead`), so with no query, no body, no parts and no problem, its
    /// method and headers still the bytes libmicrohttpd and the thread's scratch buffer hold
    /// (`RequestHandler.beginRequest`). The same record, laid out by the same `JournalRecordLayout.write`, with
    /// those fields known empty here: the general call spilled a dozen arguments to the stack and
    /// asked after each absent field twice (sizing, then writing), about 110 instructions a
    /// request more (`scripts/bench/instructions --cases get`).
    package func recordAnsweredAtHead(
        receivedAt: Int64, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer, packedHeaders headers: UnsafeRawBufferPointer,
        contract: UnsafeRawBufferPointer, response: UnsafeRawBufferPointer, status: Int, threadSlot: Int
    ) {
        // Copied only when a header is redacted or cut, as `record` does; the copy's bytes are
        // written in place of the request's, and it is kept alive until they are.
        let changed = HeaderFields.journaledCopyIfChanged(packed: headers, redacting: redaction)
        let journaled = changed?.withPackedBytes { $0 } ?? headers
        @inline(__always) func encode<Sink: RecordSink>(_ sink: inout Sink, id: Int) {
            JournalRecordLayout.write(
                id: id, receivedAt: receivedAt, status: status, bodyBytes: 0, method: method, path: path, query: nil, headers: journaled,
                contract: contract, response: response, parts: [], problem: nil, to: &sink)
        }
        var sizer = RecordSizer()
        encode(&sizer, id: 0)
        withExtendedLifetime(changed) {
            append(size: sizer.size, threadSlot: threadSlot) { writer, id in encode(&writer, id: id) }
        }
    }

    /// Numbers a record of `size` bytes and has `write` lay it out in the thread's shard, keeping
    /// the byte budget and `capacity`.
    @inline(__always)
    private func append(size: Int, threadSlot: Int, write: (inout RecordWriter, Int) -> Void) {
        // Wrapping adds (bytes held, ids a request apiece, neither near Int.max): a checked add
        // is a compare-and-swap loop, a wrapping one a single locked add.
        if heldBytes.wrappingAdd(size, ordering: .relaxed).newValue > maxBytes { evictOldest() }
        borrowedShards[threadSlot % borrowedShards.count]._withUnsafeGuaranteedRef {
            $0.arena.withLock { arena in
                // Numbered under the shard's lock, so a shard holds its records in id order even
                // when two threads share it (eviction and paged reads rely on that).
                let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
                // Evicted or cleared by another thread meanwhile: keeping it would leave a hole.
                if id <= max(bytesEvictedThrough.load(ordering: .acquiring), clearedThrough.load(ordering: .acquiring)) {
                    heldBytes.subtract(size, ordering: .relaxed)
                    return
                }
                let freed = arena.drop(through: id - capacity)
                if freed > 0 { heldBytes.subtract(freed, ordering: .relaxed) }
                var writer = RecordWriter(base: arena.append(id: id, size: size))
                write(&writer, id)
            }
        }
    }

    /// The entries held, oldest first.
    package func entries() -> [JournalEntry] {
        entries(matching: JournalQuery())
    }

    /// The entries `query` asks for, oldest first. Records at or before `since` are skipped by
    /// id without being decoded, so a reader that pages forward pays for new entries only.
    package func entries(matching query: JournalQuery) -> [JournalEntry] {
        if query.limit == 0 { return [] }
        let after = max(query.since ?? 0, evictedThrough, clearedThrough.load(ordering: .acquiring))
        var all: [JournalEntry] = []
        for shard in shards {
            shard.arena.withLock { arena in
                // A shard holds its records in id order, so past `limit` matches it has no earlier ones.
                var matches = 0
                arena.forEach { id, bytes in
                    guard id > after else { return true }
                    let entry = JournalRecordLayout.read(bytes)
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
    package var lastID: Int { nextID.load(ordering: .relaxed) - 1 }

    /// The newest id no longer held because of `capacity` or `maxBytes` (0 when none is missing).
    package var evictedThrough: Int {
        max(0, lastID - capacity, bytesEvictedThrough.load(ordering: .acquiring))
    }

    /// The oldest id the journal can still answer with: every request from it to `lastID` is held
    /// (those still being recorded aside). `lastID + 1` when it holds none.
    package var firstID: Int {
        max(evictedThrough, clearedThrough.load(ordering: .acquiring)) + 1
    }

    /// How many requests after `since` the journal evicted (`capacity` or `maxBytes`) before
    /// they could be read; requests cleared by `reset` do not count.
    package func evictedCount(after since: Int) -> Int {
        max(0, evictedThrough - max(since, clearedThrough.load(ordering: .acquiring)))
    }

    /// Bytes of the records held now, with every shard locked at once so the sum is one moment's.
    package var bytesHeld: Int {
        func sum(from index: Int) -> Int {
            index == shards.count ? 0 : shards[index].arena.withLock { $0.liveBytes + sum(from: index + 1) }
        }
        return sum(from: 0)
    }

    package func reset() {
        clearedThrough.store(lastID, ordering: .releasing)
        for shard in shards {
            shard.arena.withLock { arena in
                heldBytes.subtract(arena.liveBytes, ordering: .relaxed)
                arena = RecordArena(reserve: reserve.bytes, slotReserve: reserve.records)
            }
        }
    }

    /// Drops the oldest records over every shard, by id, until the records held (and those being
    /// copied in) fill at most 31/32 of `maxBytes`, so the next few dozen requests need not evict.
    private func evictOldest() {
        evicting.withLock { _ in
            let target = maxBytes - maxBytes / 32
            // A few rounds at most: records a shard dropped for `capacity` meanwhile free less.
            for _ in 0..<4 {
                let excess = heldBytes.load(ordering: .relaxed) - target
                guard excess > 0, let newest = newestIDToEvict(freeing: excess) else { return }
                if newest > bytesEvictedThrough.load(ordering: .relaxed) { bytesEvictedThrough.store(newest, ordering: .releasing) }
                for shard in shards {
                    shard.arena.withLock { arena in
                        let freed = arena.drop(through: newest)
                        if freed > 0 { heldBytes.subtract(freed, ordering: .relaxed) }
                        arena.shrinkIfSparse()
                    }
                }
            }
        }
    }

    /// The id through which the oldest records, over all shards, add up to at least `bytes`
    /// (all of them when they add up to less); nil when nothing is held.
    private func newestIDToEvict(freeing bytes: Int) -> Int? {
        // The oldest records overall are among each shard's own oldest `bytes`.
        var oldest: [(id: Int, size: Int)] = []
        for shard in shards {
            shard.arena.withLock { arena in
                var taken = 0
                arena.forEach { id, record in
                    oldest.append((id, record.count))
                    taken += record.count
                    return taken < bytes
                }
            }
        }
        oldest.sort { $0.id < $1.id }
        var freed = 0
        for record in oldest {
            freed += record.size
            if freed >= bytes { return record.id }
        }
        return oldest.last?.id
    }
}

extension RequestJournal {
    /// On every journal answer: the oldest id still held (`Mockapi-Journal-Last-Id` + 1 when none is).
    package static let firstIDHeader = "Mockapi-Journal-First-Id"
    /// On every journal answer: how many requests after `since` (or from the start) were evicted
    /// (`--journal-size`, `--journal-bytes`) before this read; a reader paging with `since` lost them.
    package static let evictedHeader = "Mockapi-Journal-Evicted"
}
