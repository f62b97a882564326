import MockAPICore
import Testing

@testable import MockAPIServer

/// One record per request: the journal entry and the log line are read from the same
/// `RequestRecord`, so they cannot disagree.
struct RequestRecordTests {
    @Test func theJournalAndTheLogLineReadTheSameRecord() throws {
        let record = RequestRecord(
            receivedAt: 1_700_000_000_123, method: "PUT", query: [QueryArgument("page", "2"), QueryArgument("q", "a b")],
            headers: [("Host", "x"), ("Authorization", "token abc")], bodyBytes: 12, contract: "update_backing",
            response: nil, status: 422, problem: "body.amount: expected number, found string")
        let journal = RequestJournal(capacity: 4)
        var path = "/v1/projects/42/backers/2001"
        path.withUTF8 { journal.record(record, path: UnsafeRawBufferPointer($0)) }
        let entry = try #require(journal.entries().first)
        let line = RequestLogFormatter.json(RequestLogEntry(record: record, path: path, nanoseconds: 1_500_000), verbose: false)
        #expect(
            line.serialized == #"{"time":"2023-11-14T22:13:20.123Z","method":"PUT","path":"/v1/projects/42/backers/2001","#
                + #""query":"page=2&q=a%20b","status":422,"contract":"update_backing","response":null,"ms":1.5,"#
                + #""problem":"body.amount: expected number, found string"}"#)
        #expect(
            (entry.method, entry.path, entry.query, entry.status, entry.contract, entry.problem)
                == ("PUT", path, "page=2&q=a%20b", 422, "update_backing", "body.amount: expected number, found string"))
        #expect(entry.headers.value(for: "Authorization") == "token [redacted]", "the journal redacts as it writes")
        let verbose = RequestLogFormatter.text(
            RequestLogEntry(record: record, path: path, nanoseconds: 0, verbose: true),
            options: RequestLogOptions(verbose: true))
        #expect(verbose.contains("\n    > Authorization: token [redacted]"), "and the log as it formats")
    }

    /// A request served in a session says which: its path is the one the contracts saw.
    @Test func aSessionsLineNamesTheSession() {
        let record = RequestRecord(
            receivedAt: 1_700_000_000_123, method: "GET", query: [], headers: [], bodyBytes: 0, contract: "list_notes",
            response: nil, status: 200, problem: nil)
        let entry = RequestLogEntry(record: record, path: "/v1/notes", nanoseconds: 200_000, session: "0123456789abcdef")
        #expect(RequestLogFormatter.text(entry, options: RequestLogOptions()).hasSuffix(" GET /v1/notes 200 list_notes 0.2ms session=0123456789abcdef"))
        #expect(RequestLogFormatter.json(entry, verbose: false).serialized.contains(#""path":"/v1/notes","session":"0123456789abcdef","query":"#))
        let outside = RequestLogEntry(record: record, path: "/v1/notes", nanoseconds: 200_000)
        #expect(!RequestLogFormatter.json(outside, verbose: false).serialized.contains("session"))
    }
}
