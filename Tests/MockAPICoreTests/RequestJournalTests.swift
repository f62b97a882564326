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

struct RequestJournalThreadTests {
    @Test func entriesFromManyThreadsStayBoundedAndOrdered() async {
        let journal = RequestJournal(capacity: 100, shards: 4)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<500 {
                        journal.record(JournalEntry(receivedAt: 0, method: "GET", path: "/\(worker)/\(i)", query: "", headers: [],
                                                    bodyBytes: 0, parts: [], contract: nil, response: nil, status: 200))
                    }
                }
            }
        }
        let entries = journal.entries()
        #expect(entries.count == 100)
        #expect(entries.map(\.id) == Array(1901...2000))
    }
}
