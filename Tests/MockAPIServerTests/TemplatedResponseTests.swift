import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Synchronization
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

    /// A next-page link served in a session leads back into it: the app follows links, not ids.
    @Test func linksServedInASessionStayInIt() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "list.json": #"""
                {"name": "list", "request": {"method": "GET", "path": "/v1/items", "query": {"page": {"type": "int", "required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "page.json"}}}
                """#,
                "echo.json": #"""
                {"name": "echo", "request": {"method": "GET", "path": "/v1/items/{id}"},
                 "responses": {"default": {"status": 200, "body": {"self": "{{baseURL}}/v1/items/{{path.id}}", "n": "{{counter}}"}}}}
                """#,
            ], fixtures: ["page.json": #"{"next": "{{baseURL}}/v1/items?page=2"}"#])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures, configure: { $0.reloadSource = (set.contracts.path, set.fixtures.path) }) { server in
            let made = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions")
            let id = try made.decoded(MadeSession.self).id
            let base = "http://127.0.0.1:\(server.port)"
            #expect(try RawHTTP.request(server.port, "GET", "/v1/items").text == #"{"next": "\#(base)/v1/items?page=2"}"#)
            #expect(try RawHTTP.request(server.port, "GET", "/s/\(id)/v1/items").text == #"{"next": "\#(base)/s/\#(id)/v1/items?page=2"}"#)
            #expect(
                try RawHTTP.request(server.port, "GET", "/v1/items", headers: ["Mockapi-Session": id]).text == #"{"next": "\#(base)/s/\#(id)/v1/items?page=2"}"#)
            _ = try RawHTTP.request(server.port, "GET", "/v1/items/1")
            let inSession = try RawHTTP.request(server.port, "GET", "/s/\(id)/v1/items/7").text
            #expect(inSession.contains(#""\#(base)/s/\#(id)/v1/items/7""#))
            // The session counts its own answers: its first is 1 whatever was answered outside it.
            #expect(inSession.replacingOccurrences(of: " ", with: "").contains(#""n":1"#), "\(inSession)")
            // Outside the session, the prepared answer is untouched by the rendered ones.
            #expect(try RawHTTP.request(server.port, "GET", "/v1/items").text == #"{"next": "\#(base)/v1/items?page=2"}"#)
            // Each session keeps the answer built with its own URL: asked in turn, neither gets the other's.
            let other = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions").decoded(MadeSession.self).id
            for session in [other, id, other, id] {
                #expect(try RawHTTP.request(server.port, "GET", "/s/\(session)/v1/items").text == #"{"next": "\#(base)/s/\#(session)/v1/items?page=2"}"#)
            }
            #expect(try RawHTTP.request(server.port, "GET", "/v1/items").text == #"{"next": "\#(base)/v1/items?page=2"}"#)
            // A reload replaces what the sessions kept: the edited fixture is served in them too.
            try Data(#"{"next": "{{baseURL}}/v2/items"}"#.utf8).write(to: set.fixtures.appendingPathComponent("page.json"))
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload").status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/s/\(id)/v1/items").text == #"{"next": "\#(base)/s/\#(id)/v2/items"}"#)
        }
    }

    /// A session's `{{baseURL}}` answer found before a reload is still queued after it: what the
    /// reload replaced is freed only once no request of the old contracts is left. Requests in one
    /// session race 20 reloads; each must get a whole answer of one version or the other.
    @Test func sessionAnswersRacingReloadsStayWhole() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "list.json": #"""
                {"name": "list", "request": {"method": "GET", "path": "/v1/items"},
                 "responses": {"default": {"status": 200, "fixture": "page.json"}}}
                """#
            ], fixtures: ["page.json": #"{"next": "{{baseURL}}/v0/items"}"#])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures, configure: { $0.reloadSource = (set.contracts.path, set.fixtures.path) }) { server in
            let port = server.port
            let id = try RawHTTP.request(port, "POST", "/__mockapi/sessions").decoded(MadeSession.self).id
            let base = "http://127.0.0.1:\(port)/s/\(id)"
            let reloads = 20
            let wanted = Set((0...reloads).map { #"{"next": "\#(base)/v\#($0)/items"}"# })
            let done = StopFlag()
            let clients = (0..<3).map { _ in
                Task.detached { () throws -> [String] in
                    var unexpected: [String] = []
                    while !done.raised {
                        let answer = try RawHTTP.request(port, "GET", "/s/\(id)/v1/items")
                        if answer.status != 200 || !wanted.contains(answer.text) { unexpected.append("\(answer.status) \(answer.text)") }
                    }
                    return unexpected
                }
            }
            for version in 1...reloads {
                try Data(#"{"next": "{{baseURL}}/v\#(version)/items"}"#.utf8).write(to: set.fixtures.appendingPathComponent("page.json"))
                #expect(try RawHTTP.request(port, "POST", "/__mockapi/reload").status == 200)
            }
            done.raise()
            for client in clients { #expect(try await client.value.isEmpty) }
            #expect(try RawHTTP.request(port, "GET", "/s/\(id)/v1/items").text == #"{"next": "\#(base)/v\#(reloads)/items"}"#)
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

/// Tells clients running on other threads to stop.
private final class StopFlag: Sendable {
    private let state = Atomic(false)
    var raised: Bool { state.load(ordering: .acquiring) }
    func raise() { state.store(true, ordering: .releasing) }
}

/// `POST /__mockapi/sessions`'s answer, as far as these tests read it.
private struct MadeSession: Decodable { var id: String }
