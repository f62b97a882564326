import CMicroHTTPD
import MockAPICore

/// `GET /__mockapi/requests` sent as it is rendered: a page of entries at a time, so a reader
/// of a full journal costs one page of memory, not the whole JSON document (10,000 requests
/// with large headers once rendered to hundreds of megabytes in one go).
final class JournalStream {
    /// Small pages keep a client that stops reading from pinning much memory (entries can carry
    /// 24 KB of headers each); reading a page skips older records by id, so small pages stay cheap.
    static let pageSize = 32

    private let journal: RequestJournal
    private var query: JournalQuery
    /// Entries still allowed by the query's `limit`.
    private var remaining: Int
    private var pending: [UInt8] = Array("[".utf8)
    /// How much of `pending` MHD has taken.
    private var sent = 0
    private var sentAny = false
    private var finished = false
    /// Set when the reader pages with `since`: the eviction mark its headers reported. Should the
    /// journal evict past it and past what was sent before the answer is done, the answer ends in
    /// an error rather than skip those requests silently.
    private let reportedEviction: Int?

    init(journal: RequestJournal, query: JournalQuery, reportedEviction: Int?) {
        self.journal = journal
        self.query = query
        self.reportedEviction = reportedEviction
        remaining = query.limit ?? .max
    }

    /// A chunked MHD response reading from a new stream; MHD frees the stream with the response.
    /// `headers`: what the decision adds to every answer (CORS).
    static func response(journal: RequestJournal, query: JournalQuery, lastID: Int, headers: [HTTPField]) -> OpaquePointer {
        let evictedThrough = journal.evictedThrough
        let stream = JournalStream(journal: journal, query: query, reportedEviction: query.since == nil ? nil : evictedThrough)
        let response = MHDResponse.streamed(context: Unmanaged.passRetained(stream).toOpaque(), read: read, free: free)
        MHDResponse.addHeaders(
            [
                HTTPField("Content-Type", "application/json"), HTTPField(Responder.journalLastIDHeader, String(lastID)),
                HTTPField(RequestJournal.firstIDHeader, String(journal.firstID)),
                HTTPField(RequestJournal.evictedHeader, String(journal.evictedCount(after: query.since ?? 0))),
            ] + headers, to: response)
        return response
    }

    private static let read: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer else { return -2 } // MHD_CONTENT_READER_END_WITH_ERROR
        return Unmanaged<JournalStream>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.fill(buffer, max: max) }
    }

    private static let free: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<JournalStream>.fromOpaque(cls).release()
    }

    /// Copies up to `max` bytes of the document into `buffer`; -1 (MHD_CONTENT_READER_END_OF_STREAM)
    /// at the end, -2 (MHD_CONTENT_READER_END_WITH_ERROR) when requests the reader asked for were evicted meanwhile.
    private func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while sent == pending.count {
            if finished { return -1 }
            pending.removeAll(keepingCapacity: true)
            sent = 0
            guard renderNextPage() else { return -2 }
        }
        let count = min(max, pending.count - sent)
        pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + sent, byteCount: count) }
        sent += count
        return count
    }

    /// Renders the next page into `pending`; false when requests after the cursor were evicted
    /// before they could be read (only checked for a reader paging with `since`).
    private func renderNextPage() -> Bool {
        var page = query
        page.limit = min(Self.pageSize, remaining)
        let entries = remaining > 0 ? journal.entries(matching: page) : []
        if let reported = reportedEviction, let cursor = query.since {
            // Evicted ids the reader would not see lie between the cursor and the first entry read.
            let lostThrough = min(journal.evictedThrough, (entries.first?.id ?? .max) - 1)
            if lostThrough > max(cursor, reported) { return false }
        }
        var text = ""
        for entry in entries {
            text += (sentAny ? ",\n  " : "\n  ") + entry.json.prettySerialized(level: 1)
            sentAny = true
        }
        remaining -= entries.count
        if let last = entries.last { query.since = last.id }
        if entries.count < page.limit ?? 0 || remaining == 0 {
            text += (sentAny ? "\n]\n" : "]\n")
            finished = true
        }
        pending += text.utf8
        return true
    }
}
