import Testing
@testable import MockAPICore

struct RequestJournalTests {
    private func entry(_ path: String) -> JournalEntry {
        JournalEntry(receivedAt: 0, method: "GET", path: path, query: "", headers: [], bodyBytes: 0, parts: [],
                     contract: nil, response: nil, status: 404)
    }

    @Test func keepsTheNewestEntriesOldestFirst() {
        let journal = RequestJournal(capacity: 3)
        for i in 1...5 { journal.record(entry("/\(i)")) }
        #expect(journal.entries().map(\.path) == ["/3", "/4", "/5"])
        #expect(journal.entries().map(\.id) == [3, 4, 5])
        journal.reset()
        #expect(journal.entries().isEmpty)
        journal.record(entry("/6"))
        #expect(journal.entries().map(\.path) == ["/6"])
    }

    @Test func queryIsReencodedAsAClientSendsIt() {
        #expect(JournalEntry.encodeQuery([("ids[]", "1"), ("q", "a b&c"), ("flag", nil)]) == "ids[]=1&q=a%20b%26c&flag")
    }
}
