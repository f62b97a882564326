import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Fixture placeholders over real sockets: the server's own URL on port 0, and values echoed
/// from the request.
@Suite struct TemplatedResponseTests {
    @Test func fixturesEchoThePathAndQueryAndLinkToThisServer() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "comments.json": #"""
                {"name": "comments", "request": {"method": "GET", "path": "/v1/projects/{projectId:int}/comments",
                  "query": {"page": {"type": "int", "required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "comments.json"}}}
                """#
            ], fixtures: ["comments.json": #"{"project_id": "{{path.projectId}}", "page": "{{query.page}}", "next": "{{baseURL}}/v1/projects/{{path.projectId}}/comments?page=2"}"#])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let first = try RawHTTP.request(server.port, "GET", "/v1/projects/42/comments?page=1")
            #expect(first.status == 200)
            #expect(first.headers["mockapi-contract"] == "comments")
            #expect(first.headers["content-type"] == "application/json")
            #expect(first.text == #"{"project_id": "42", "page": "1", "next": "http://127.0.0.1:\#(server.port)/v1/projects/42/comments?page=2"}"#)
            let other = try RawHTTP.request(server.port, "GET", "/v1/projects/7/comments")
            #expect(other.text == #"{"project_id": "7", "page": "", "next": "http://127.0.0.1:\#(server.port)/v1/projects/7/comments?page=2"}"#)
            #expect(server.journal().map(\.response) == ["default", "default"])
        }
    }

    /// A page the mock serves is same-origin with its journal: a request must not put a script in it.
    @Test func anHTMLFixtureServesTheQueryEscaped() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "search.json": #"""
                {"name": "search", "request": {"method": "GET", "path": "/search", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "search.html"}}}
                """#
            ], fixtures: ["search.html": "<h1>Results for {{query.q}}</h1>"])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let page = try RawHTTP.request(server.port, "GET", "/search?q=%3Cscript%3Efetch(%27/__mockapi/requests%27)%3C/script%3E")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.text == "<h1>Results for &lt;script&gt;fetch(&#39;/__mockapi/requests&#39;)&lt;/script&gt;</h1>")
        }
    }
}
