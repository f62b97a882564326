import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// `GET /__mockapi/requests` with a query: what the verify runner and `mockapi coverage` read.
@Suite struct JournalEndpointTests {
    @Test func queryPagesAndFiltersOverHTTP() async throws {
        try await withMockServer { server in
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/nowhere").status == 404)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/activities?count=x").status == 422)

            let all = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?limit=0")
            #expect(all.status == 200)
            #expect(all.headers["mockapi-journal-last-id"] == "3")
            #expect(try all.decoded([Listed].self).isEmpty)

            let after1 = try listed(server.port, "/__mockapi/requests?since=1")
            #expect(after1.map { $0.path } == ["/v1/nowhere", "/v1/activities"])
            #expect(
                after1.first?.problem
                    == #"no contract matches GET /v1/nowhere (nearest activities: segment 2 is "nowhere", /v1/activities expects "activities")"#)
            #expect(after1.last?.problem == "query.count: expected int, found \"x\"")

            let unmatched = try listed(server.port, "/__mockapi/requests?unmatched")
            #expect(unmatched.map(\.id) == [2])
            let violations = try listed(server.port, "/__mockapi/requests?violations")
            #expect(violations.map { $0.contract } == ["activities"])
            let served = try listed(server.port, "/__mockapi/requests?contract=categories")
            #expect(served.map { $0.response } == ["default"])

            let bad = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=soon")
            #expect(bad.status == 400)
            #expect(ProblemDocument(body: bad.body)?.error == "GET /__mockapi/requests: since must be a non-negative integer, got \"soon\"")
        }
    }

    @Test func longJournalStreamsEveryEntryAcrossPages() async throws {
        try await withMockServer { server in
            for i in 0..<450 { _ = try RawHTTP.request(server.port, "GET", i % 3 == 0 ? "/v1/nowhere" : "/v1/categories") }

            let whole = try RawHTTP.request(server.port, "GET", "/__mockapi/requests")
            #expect(whole.headers["transfer-encoding"] == "chunked")
            let entries = try whole.decoded([Listed].self)
            #expect(entries.map(\.id) == Array(1...450))
            #expect(entries.map(\.id) == server.journal().map(\.id))

            let limited = try listed(server.port, "/__mockapi/requests?since=10&limit=300")
            #expect(limited.map(\.id) == Array(11...310))
            let unmatched = try listed(server.port, "/__mockapi/requests?unmatched")
            #expect(unmatched.count == 150)
        }
    }

    @Test func readerIsToldWhereTheJournalStartsAndWhatItEvicted() async throws {
        try await withMockServer(configure: { $0.journalMaxBytes = 40_000 }) { server in
            let padding = ["X-Padding": String(repeating: "p", count: 4_000)]
            for _ in 0..<30 { _ = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: padding) }

            let whole = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=0")
            let ids = try whole.decoded([Listed].self).map(\.id)
            let first = try #require(ids.first)
            #expect(ids == Array(first...30), "the newest requests, none missing inside")
            #expect(ids.count >= 7, "the budget holds about nine of these: \(ids)")
            #expect(whole.headers["mockapi-journal-first-id"] == String(first))
            #expect(whole.headers["mockapi-journal-evicted"] == String(first - 1), "a reader from the start lost them all")

            let fromGap = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=3&limit=1")
            #expect(fromGap.headers["mockapi-journal-evicted"] == String(first - 4))
            #expect(try fromGap.decoded([Listed].self).first?.id == first)
            let caughtUp = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=\(first - 1)&limit=0")
            #expect(caughtUp.headers["mockapi-journal-evicted"] == "0")
        }
    }

    @Test func methodPathStatusFiltersCountAndTestHelpers() async throws {
        try await withMockServer { server in
            _ = try RawHTTP.request(server.port, "GET", "/v1/projects/42")
            _ = try RawHTTP.request(server.port, "GET", "/v1/projects/7")
            _ = try RawHTTP.request(server.port, "POST", "/v1/projects/7/star")
            _ = try RawHTTP.request(server.port, "GET", "/v1/categories")

            let count = try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count?method=get&path=/v1/projects/*")
            #expect(try count.decoded(Count.self).count == 2)
            let exact = try listed(server.port, "/__mockapi/requests?path=/v1/projects/7")
            #expect(exact.map(\.id) == [2])
            let created = try listed(server.port, "/__mockapi/requests?status=200&method=POST")
            #expect(created.map { $0.contract } == ["star_project"])

            #expect(server.requests(contract: "project").count == 2)
            #expect(server.requests(method: "post", path: "/v1/projects/*").map(\.path) == ["/v1/projects/7/star"])
            #expect(server.requests(status: 404).isEmpty)
        }
    }

    /// A journal entry as Foundation's decoder reads it: typed, and independent of the server's JSON code.
    private struct Listed: Decodable {
        var id: Int
        var path: String
        var contract: String?
        var response: String?
        var problem: String?
    }

    private struct Count: Decodable { var count: Int }

    private func listed(_ port: Int, _ target: String) throws -> [Listed] {
        try RawHTTP.request(port, "GET", target).decoded([Listed].self)
    }
}
