import MockAPICore
import MockAPIServer

/// What one read of a mock server's journal gives: the entries the query admits, oldest first,
/// the newest id at the time of reading, and how many requests after the query's `since` the
/// server evicted before they could be read.
struct JournalPage: Sendable {
    var entries: [JournalEntry]
    var lastID: Int
    var evicted: Int
}

/// Where the runner reads a mock server's journal and resets its sequences: over HTTP for a
/// server in another process (`AdminClient`), or directly for the runner's own in-process
/// server, which then costs no exchange beyond the client's own requests.
protocol JournalSource: Sendable {
    func resetScenarios() async throws
    func page(_ query: JournalQuery) async throws -> JournalPage
}

extension JournalSource {
    /// The newest journal id: where a reader of what comes next starts.
    func cursor() async throws -> Int {
        try await page(JournalQuery(limit: 0)).lastID
    }
}

/// The journal of a server in this process, read without HTTP.
struct ServerJournal: JournalSource {
    let server: MockServer

    func resetScenarios() {
        server.responder.scenarios.reset()
    }

    func page(_ query: JournalQuery) -> JournalPage {
        let journal = server.journal
        // Read before the entries, as the admin endpoint does, so a reader paging with `since` never skips one.
        let lastID = journal.lastID
        let evicted = journal.evictedCount(after: query.since ?? 0)
        return JournalPage(entries: journal.entries(matching: query), lastID: lastID, evicted: evicted)
    }
}
