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
            #expect((all.json as? [Any])?.isEmpty == true)

            let after1 = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=1").json as? [[String: Any]])
            #expect(after1.map { $0["path"] as? String } == ["/v1/nowhere", "/v1/activities"])
            #expect(after1.first?["problem"] as? String == "no contract matches GET /v1/nowhere")
            #expect(after1.last?["problem"] as? String == "query.count: expected int, found \"x\"")

            let unmatched = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?unmatched").json as? [[String: Any]])
            #expect(unmatched.map { $0["id"] as? Int } == [2])
            let violations = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?violations").json as? [[String: Any]])
            #expect(violations.map { $0["contract"] as? String } == ["activities"])
            let served = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?contract=categories").json as? [[String: Any]])
            #expect(served.map { $0["response"] as? String } == ["default"])

            let bad = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=soon")
            #expect(bad.status == 400)
            #expect((bad.json as? [String: Any])?["error"] as? String == "GET /__mockapi/requests: since must be a non-negative integer, got \"soon\"")
        }
    }

    @Test func longJournalStreamsEveryEntryAcrossPages() async throws {
        try await withMockServer { server in
            for i in 0..<450 { _ = try RawHTTP.request(server.port, "GET", i % 3 == 0 ? "/v1/nowhere" : "/v1/categories") }

            let whole = try RawHTTP.request(server.port, "GET", "/__mockapi/requests")
            #expect(whole.headers["transfer-encoding"] == "chunked")
            let entries = try #require(whole.json as? [[String: Any]], "the streamed document parses as one JSON array")
            #expect(entries.compactMap { $0["id"] as? Int } == Array(1...450))
            #expect(entries.compactMap { $0["id"] as? Int } == server.journal().map(\.id))

            let limited = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?since=10&limit=300").json as? [[String: Any]])
            #expect(limited.compactMap { $0["id"] as? Int } == Array(11...310))
            let unmatched = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?unmatched").json as? [[String: Any]])
            #expect(unmatched.count == 150)
        }
    }

    @Test func methodPathStatusFiltersCountAndTestHelpers() async throws {
        try await withMockServer { server in
            _ = try RawHTTP.request(server.port, "GET", "/v1/projects/42")
            _ = try RawHTTP.request(server.port, "GET", "/v1/projects/7")
            _ = try RawHTTP.request(server.port, "POST", "/v1/projects/7/star")
            _ = try RawHTTP.request(server.port, "GET", "/v1/categories")

            let count = try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count?method=get&path=/v1/projects/*")
            #expect((count.json as? [String: Any])?["count"] as? Int == 2)
            let exact = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?path=/v1/projects/7").json as? [[String: Any]])
            #expect(exact.map { $0["id"] as? Int } == [2])
            let created = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?status=200&method=POST").json as? [[String: Any]])
            #expect(created.map { $0["contract"] as? String } == ["star_project"])

            #expect(server.requests(contract: "project").count == 2)
            #expect(server.requests(method: "post", path: "/v1/projects/*").map(\.path) == ["/v1/projects/7/star"])
            #expect(server.requests(status: 404).isEmpty)
        }
    }
}
