import MockAPICore
import Testing

/// Every field of a journal record reads back as it was recorded, each in its present and its
/// absent form: the writer, the sizer and the reader agree on the record's layout.
@Suite struct JournalRecordRoundTripTests {
    static let part = ReceivedPart(name: "image", filename: "a.jpg", contentType: "image/jpeg", bytes: 1_234, sha256: String(repeating: "ab", count: 32))
    static let bare = ReceivedPart(name: "note", filename: nil, contentType: nil, bytes: 0, sha256: "")

    static let records: [(RequestRecord, path: String)] = [
        (RequestRecord(), "/"),
        (
            RequestRecord(
                receivedAt: 1_700_000_000_123, method: "PATCH", query: [QueryArgument("page", "2"), QueryArgument("flag", nil), QueryArgument("q", "a b&c")],
                headers: [("Host", "x"), ("X-Empty", ""), ("Accept", "application/json")], bodyBytes: 987_654,
                parts: [part, bare], contract: "edit_note", response: "invalid", status: 422, problem: "body.done: expected bool"),
            "/v1/notes/42"
        ),
        (RequestRecord(method: "DELETE", contract: "remove", response: nil, status: 204), "/v1/é/日本"),
        (RequestRecord(method: "GET", contract: nil, response: nil, status: 404, problem: ""), String(repeating: "/x", count: 2_000)),
        (RequestRecord(receivedAt: -1, method: "", bodyBytes: Int.max, status: 0), ""),
    ]

    @Test func eachFieldReadsBack() {
        let journal = RequestJournal(capacity: 16)
        for (record, path) in Self.records {
            var path = path
            path.withUTF8 { journal.record(record, path: UnsafeRawBufferPointer($0)) }
        }
        let entries = journal.entries()
        #expect(entries.count == Self.records.count)
        for (index, (entry, (record, path))) in zip(entries, Self.records).enumerated() {
            #expect(entry.id == index + 1)
            #expect(entry.receivedAt == record.receivedAt)
            #expect(entry.method == record.method)
            #expect(entry.path == path)
            #expect(entry.query == JournalEntry.encodeQuery(record.query))
            #expect(entry.headers == record.headers)
            #expect(entry.bodyBytes == record.bodyBytes)
            #expect(entry.parts == record.parts)
            #expect(entry.contract == record.contract)
            #expect(entry.response == record.response)
            #expect(entry.status == record.status)
            #expect(entry.problem == record.problem)
        }
    }

    /// The byte budget counts what records take: a journal allowed a little more than one record
    /// keeps only the newest, and one allowed all of them keeps all.
    @Test func theBudgetCountsWhatRecordsTake() {
        func kept(maxBytes: Int) -> [Int] {
            let journal = RequestJournal(capacity: 16, maxBytes: maxBytes)
            for index in 0..<4 {
                var path = "/v1/items/\(index)"
                path.withUTF8 { journal.record(RequestRecord(contract: "item", status: 200), path: UnsafeRawBufferPointer($0)) }
            }
            return journal.entries().map(\.id)
        }
        #expect(kept(maxBytes: 1 << 20) == [1, 2, 3, 4])
        #expect(kept(maxBytes: 150) == [4])
    }
}
