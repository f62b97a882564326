import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// What the server writes on the wire (journal pages, refusal bodies, the route list) reads back
/// into the core's value types, as the contract runner and `mockapi coverage` read it.
@Suite struct AdminOutputDecodingTests {
    @Test func aJournalPageReadsBackAsTheEntriesTheServerHolds() async throws {
        try await withMockServer { server in
            _ = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "example=default"])
            _ = try RawHTTP.request(server.port, "GET", "/v1/discover?page=x")
            _ = try RawHTTP.request(server.port, "GET", "/v1/categorie")

            let page = try RawHTTP.request(server.port, "GET", "/__mockapi/requests")
            let entries = try JournalEntry.page(from: page.body)
            #expect(entries.count == 3)
            #expect(entries == server.journal(), "decoded over HTTP as read in process")
            let refused: [Bool] = entries.map { $0.problem != nil }
            #expect(refused == [false, true, true])

            let query = JournalQuery(since: entries[0].id, method: "GET", path: "/v1/discover")
            let filtered = try RawHTTP.request(server.port, "GET", "/__mockapi/requests?" + query.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
            #expect(try JournalEntry.page(from: filtered.body).map(\.path) == ["/v1/discover"])
        }
    }

    @Test func aJournalPageOfAnotherShapeIsRefused() {
        #expect(throws: JournalEntry.Unreadable.self) { try JournalEntry.page(from: Array(#"[{"id": "1"}]"#.utf8)) }
        #expect(throws: JournalEntry.Unreadable.self) { try JournalEntry.page(from: Array(#"{"id": 1}"#.utf8)) }
    }

    @Test func refusalBodiesReadBackAndWriteTheSameBytes() async throws {
        try await withMockServer { server in
            let violation = try RawHTTP.request(server.port, "GET", "/v1/discover?page=x")
            let notFound = try RawHTTP.request(server.port, "GET", "/v1/categorie")
            let wrongMethod = try RawHTTP.request(server.port, "PATCH", "/v1/categories")
            let statuses: [Int] = [violation.status, notFound.status, wrongMethod.status]
            #expect(statuses == [422, 404, 405])

            let problem = try #require(ProblemDocument(body: violation.body))
            #expect(problem.kind == .contractViolation)
            #expect(problem.violations?.first?.location == "query.page")
            let nearest = try #require(ProblemDocument(body: notFound.body))
            #expect(nearest.kind == nil)
            #expect(nearest.nearest?.first?.contract == "categories")
            let allowed = try #require(ProblemDocument(body: wrongMethod.body))
            #expect(allowed.allowed?.contains("GET") == true)
            for (response, document) in [(violation, problem), (notFound, nearest), (wrongMethod, allowed)] {
                #expect(Data((document.json.prettySerialized + "\n").utf8) == response.body, "\(response.text)")
            }
        }
    }

    @Test func theRouteListReadsBackAsTheServedContracts() async throws {
        try await withMockServer { server in
            let routes = try RawHTTP.request(server.port, "GET", "/__mockapi/routes")
            let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
            let listed = try #require(RouteListing.list(from: routes.body))
            #expect(listed == RouteListing.all(in: set))
            #expect(listed.count == set.contracts.count)
        }
    }

    @Test func aJournalQueryReadsBackFromItsPairs() throws {
        let query = JournalQuery(
            since: 7, limit: 2, contract: "project", unmatched: true, violations: true,
            header: HTTPField("X-Trace", "a: b"), method: "POST", path: "/v1/projects/*", status: 422)
        #expect(try JournalQuery(pairs: query.pairs.map { QueryArgument($0.name, $0.value) }) == query)
    }
}
