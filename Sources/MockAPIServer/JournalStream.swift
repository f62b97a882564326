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

    init(journal: RequestJournal, query: JournalQuery) {
        self.journal = journal
        self.query = query
        remaining = query.limit ?? .max
    }

    /// A chunked MHD response reading from a new stream; MHD frees the stream with the response.
    static func response(journal: RequestJournal, query: JournalQuery, lastID: Int) -> OpaquePointer {
        let stream = Unmanaged.passRetained(JournalStream(journal: journal, query: query)).toOpaque()
        let response = MHD_create_response_from_callback(UInt64.max, 32 * 1024, read, stream, free)!
        MHD_add_response_header(response, "Content-Type", "application/json")
        MHD_add_response_header(response, Responder.journalLastIDHeader, String(lastID))
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

    /// Copies up to `max` bytes of the document into `buffer`; -1 (MHD_CONTENT_READER_END_OF_STREAM) at the end.
    private func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while sent == pending.count {
            if finished { return -1 }
            pending.removeAll(keepingCapacity: true)
            sent = 0
            renderNextPage()
        }
        let count = min(max, pending.count - sent)
        pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + sent, byteCount: count) }
        sent += count
        return count
    }

    private func renderNextPage() {
        var page = query
        page.limit = min(Self.pageSize, remaining)
        let entries = remaining > 0 ? journal.entries(matching: page) : []
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
    }
}
