import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `resource` contracts over real sockets, driven by curl: a create-then-read flow reads back what
/// it wrote, a refused request changes nothing, and the JSON is read with Foundation's parser.
@Suite struct ResourceTests {
    /// Drafts under a project: list (an envelope with `data` and `total`), create, read, replace,
    /// merge, remove. The create answer is 201; the list fixture seeds two drafts.
    static let drafts: [String: String] = [
        "list.json": #"""
        {"name": "list_drafts", "request": {"method": "GET", "path": "/v1/projects/{projectId:int}/drafts"},
         "resource": {"name": "drafts", "items": "/data"},
         "responses": {"default": {"status": 200, "fixture": "drafts.json"}}}
        """#,
        "create.json": #"""
        {"name": "create_draft", "request": {"method": "POST", "path": "/v1/projects/{projectId:int}/drafts",
           "json": {"title": {"type": "string"}, "body": {"type": "string", "required": false}}},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 201, "fixture": "draft.json", "headers": {"X-Created": "yes"}},
                       "invalid": {"status": 422, "body": {"error": "invalid"}}}}
        """#,
        "read.json": #"""
        {"name": "read_draft", "request": {"method": "GET", "path": "/v1/projects/{projectId:int}/drafts/{id:int}"},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 200, "fixture": "draft.json"}, "gone": {"status": 404, "body": {"error": "no such draft"}}}}
        """#,
        "replace.json": #"""
        {"name": "replace_draft", "request": {"method": "PUT", "path": "/v1/projects/{projectId:int}/drafts/{draftId:int}",
           "json": {"title": {"type": "string"}, "body": {"type": "string"}}},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 200, "fixture": "draft.json"}}}
        """#,
        "merge.json": #"""
        {"name": "edit_draft", "request": {"method": "PATCH", "path": "/v1/projects/{projectId:int}/drafts/{id:int}",
           "json": {}, "body": {"otherKeys": true, "contentTypes": ["application/merge-patch+json", "application/json"]}},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 200, "fixture": "draft.json"}}}
        """#,
        "remove.json": #"""
        {"name": "delete_draft", "request": {"method": "DELETE", "path": "/v1/projects/{projectId:int}/drafts/{id:int}"},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 204}}}
        """#,
    ]
    static let fixtures: [String: String] = [
        "drafts.json": #"{"data": [{"id": 1, "title": "First", "body": "a", "published": false}, {"id": 2, "title": "Second", "body": "b", "published": false}], "total": 2}"#,
        "draft.json": #"{"id": 1, "title": "First", "body": "a", "published": false}"#,
    ]

    struct Answer {
        var status: Int
        /// Nil when the body is not JSON of `Body`'s shape.
        var json: Body?
        var text: String
        var headers: String
    }

    /// Every body these tests read, in one shape: a draft, a page of drafts, an error, a
    /// refusal's violations, a made session.
    struct Body: Decodable {
        /// An item's id: a number from the store's counter, or text (`"id": "uuid"`, a session's).
        enum ID: Decodable, Equatable {
            case number(Int), text(String)

            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer()
                self = try (try? value.decode(Int.self)).map(ID.number) ?? .text(value.decode(String.self))
            }

            var text: String? { if case .text(let text) = self { text } else { nil } }
        }

        struct Violation: Decodable {
            var location: String
            var message: String
        }

        var id: ID?
        var title: String?
        var body: String?
        var published: Bool?
        var data: [Body]?
        var total: Int?
        var error: String?
        var violations: [Violation]?
    }

    /// One exchange with curl, the body decoded by Foundation's JSONDecoder (neither is mockapi's code).
    static func curl(_ server: RunningMockServer, _ method: String, _ path: String, json: String? = nil, type: String = "application/json") throws -> Answer {
        var arguments = ["curl", "-s", "-D", "-", "-X", method, "\(server.baseURL.absoluteString)\(path)"]
        if let json { arguments += ["-H", "Content-Type: \(type)", "--data-binary", json] }
        let run = try ExternalTool.run(arguments)
        let parts = run.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts[0]
        let status = Int(head.split(separator: " ")[1]) ?? 0
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        return Answer(status: status, json: try? JSONDecoder().decode(Body.self, from: Data(body.utf8)), text: body, headers: head.lowercased())
    }

    static func ids(_ answer: Answer) -> [Int] {
        (answer.json?.data ?? []).compactMap { if case .number(let id)? = $0.id { id } else { nil } }
    }

    @Test func aCreatedItemIsListedReadEditedAndRemoved() async throws {
        let set = try TemporaryContractSet(contracts: Self.drafts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [1, 2])

            let created = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "Trip \"report\" ✓"}"#)
            #expect(created.status == 201)
            #expect(created.headers.contains("x-created: yes"))
            #expect(created.headers.contains("mockapi-contract: create_draft"))
            #expect(created.json?.id == .number(3))
            #expect(created.json?.title == "Trip \"report\" ✓")
            // Keys the client did not send keep the fixture's values: the item has its whole shape.
            #expect(created.json?.published == false)

            let listed = try Self.curl(server, "GET", "/v1/projects/7/drafts")
            #expect(Self.ids(listed) == [1, 2, 3])
            #expect(listed.json?.total == 2, "the envelope around the items is the fixture's")
            #expect(try Self.curl(server, "GET", "/v1/projects/7/drafts/3").json?.title == "Trip \"report\" ✓")

            let merged = try Self.curl(server, "PATCH", "/v1/projects/7/drafts/3", json: #"{"published": true, "id": 99}"#, type: "application/merge-patch+json")
            #expect(merged.status == 200)
            #expect(merged.json?.published == true)
            #expect(merged.json?.id == .number(3), "the id is the path's, whatever the body says")

            let replaced = try Self.curl(server, "PUT", "/v1/projects/7/drafts/3", json: #"{"title": "Renamed", "body": "text"}"#)
            #expect(replaced.json?.title == "Renamed")
            #expect(replaced.json?.published == true)

            let removed = try Self.curl(server, "DELETE", "/v1/projects/7/drafts/1")
            #expect(removed.status == 204)
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [2, 3])
            // The contract's own 404 answers an id that is not there.
            let gone = try Self.curl(server, "GET", "/v1/projects/7/drafts/1")
            #expect(gone.status == 404)
            #expect(gone.json?.error == "no such draft")
            #expect(try Self.curl(server, "DELETE", "/v1/projects/7/drafts/1").status == 404)

            // Every exchange is in the journal under its contract, the refusals with why.
            let journal = server.journal()
            #expect(journal.map(\.contract).suffix(3) == ["list_drafts", "read_draft", "delete_draft"])
            #expect(journal.last?.status == 404)
        }
    }

    @Test func refusedWritesChangeNothing() async throws {
        let set = try TemporaryContractSet(contracts: Self.drafts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            // Breaks the contract (title must be a string): mockapi's 422, nothing stored.
            let wrongType = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": 5}"#)
            #expect(wrongType.status == 422)
            // Passes the contract but would break the stored shape: null for a key every draft has.
            let nulled = try Self.curl(server, "PATCH", "/v1/projects/7/drafts/2", json: #"{"body": null}"#, type: "application/merge-patch+json")
            #expect(nulled.status == 422)
            let violations = nulled.json?.violations
            #expect(violations?.first?.location == "body.body", "\(nulled.text)")
            #expect(violations?.first?.message == "key body would be removed from the stored item: drafts items keep the shape of their fixture")
            let typeChange = try Self.curl(server, "PATCH", "/v1/projects/7/drafts/2", json: #"{"published": "yes"}"#, type: "application/merge-patch+json")
            #expect(typeChange.status == 422)
            let notJSON = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "#)
            #expect(notJSON.status == 422)

            let listed = try Self.curl(server, "GET", "/v1/projects/7/drafts")
            #expect(Self.ids(listed) == [1, 2])
            let second = try Self.curl(server, "GET", "/v1/projects/7/drafts/2").json
            #expect(second?.body == "b" && second?.published == false)
            // The next id is still 3: a refused create takes none.
            #expect(try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "x"}"#).json?.id == .number(3))
        }
    }

    @Test func eachCollectionPathHasItsOwnItemsAndTheScenarioResetEmptiesThem() async throws {
        let set = try TemporaryContractSet(contracts: Self.drafts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            _ = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "seven"}"#)
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/8/drafts")) == [1, 2])
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [1, 2, 3])
            // A request for another named response serves its fixture, not the store.
            let preferred = try ExternalTool.run([
                "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Prefer: example=invalid",
                "-H", "Content-Type: application/json", "--data-binary", #"{"title": "no"}"#, "\(server.baseURL.absoluteString)/v1/projects/7/drafts",
            ])
            #expect(preferred.stdout == "422")
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [1, 2, 3])

            #expect(try Self.curl(server, "DELETE", "/__mockapi/scenarios").status == 200)
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [1, 2])
        }
    }

    @Test func eachSessionHasItsOwnStore() async throws {
        let set = try TemporaryContractSet(contracts: Self.drafts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let first = try #require(try Self.curl(server, "POST", "/__mockapi/sessions").json?.id?.text)
            let second = try #require(try Self.curl(server, "POST", "/__mockapi/sessions").json?.id?.text)
            let created = try Self.curl(server, "POST", "/s/\(first)/v1/projects/7/drafts", json: #"{"title": "first's"}"#)
            #expect(created.json?.id == .number(3))
            #expect(Self.ids(try Self.curl(server, "GET", "/s/\(first)/v1/projects/7/drafts")) == [1, 2, 3])
            #expect(Self.ids(try Self.curl(server, "GET", "/s/\(second)/v1/projects/7/drafts")) == [1, 2])
            #expect(Self.ids(try Self.curl(server, "GET", "/v1/projects/7/drafts")) == [1, 2], "outside any session")
            // The other session's create takes the same id: ids are per store.
            #expect(try Self.curl(server, "POST", "/s/\(second)/v1/projects/7/drafts", json: #"{"title": "second's"}"#).json?.id == .number(3))
            #expect(try Self.curl(server, "POST", "/__mockapi/sessions/\(first)/reset").status == 200)
            #expect(Self.ids(try Self.curl(server, "GET", "/s/\(first)/v1/projects/7/drafts")) == [1, 2])
            #expect(Self.ids(try Self.curl(server, "GET", "/s/\(second)/v1/projects/7/drafts")) == [1, 2, 3])
        }
    }

    @Test func uuidIdsAndStringIdsKeepTheirType() async throws {
        var contracts = Self.drafts
        contracts["create.json"] = contracts["create.json"]!.replacingOccurrences(of: #""resource": {"name": "drafts"}"#, with: #""resource": {"name": "drafts", "id": "uuid"}"#)
        for name in ["read.json", "replace.json", "merge.json", "remove.json"] {
            contracts[name] = contracts[name]!.replacingOccurrences(of: ":int}", with: "}")
        }
        let textualFixtures = Self.fixtures.mapValues { $0.replacingOccurrences(of: #""id": 1"#, with: #""id": "1""#).replacingOccurrences(of: #""id": 2"#, with: #""id": "2""#) }
        let set = try TemporaryContractSet(contracts: contracts, fixtures: textualFixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let created = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "u"}"#)
            let id = try #require(created.json?.id?.text)
            #expect(UUID(uuidString: id) != nil && id == id.lowercased())
            #expect(try Self.curl(server, "GET", "/v1/projects/7/drafts/\(id)").json?.title == "u")
        }
        let textual = try TemporaryContractSet(contracts: Self.drafts, fixtures: textualFixtures)
        try await withMockServer(contracts: textual.contracts, fixtures: textual.fixtures) { server in
            let created = try Self.curl(server, "POST", "/v1/projects/7/drafts", json: #"{"title": "s"}"#)
            #expect(created.json?.id == .text("3"))
        }
    }

    @Test func aCollectionStopsGrowingAtItsBound() async throws {
        // The bound is 10,000 items; filling it over HTTP would take the test minutes, so the
        // store's own bound is exercised in-process with the set's real table.
        let set = try TemporaryContractSet(contracts: Self.drafts, fixtures: Self.fixtures)
        let loaded = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
        let responder = Responder(set: loaded)
        let create = try #require(loaded.contracts.firstIndex { $0.name == "create_draft" })
        var last: GeneratedResponse?
        let path = Array("/v1/projects/7/drafts".utf8)
        // The two seeded drafts count.
        for _ in 0..<(ResourceStore.maxItems - 2) {
            last = path.withUnsafeBufferPointer { bytes in
                responder.resourceAnswer(contract: create, response: 0, path: bytes, body: .json(.object(JSONObject([("title", .string("t"))]))), store: responder.resourceStore)?.answer
            }
        }
        #expect(last?.status == 201)
        let refused = path.withUnsafeBufferPointer { bytes in
            responder.resourceAnswer(contract: create, response: 0, path: bytes, body: .json(.object(JSONObject([("title", .string("t"))]))), store: responder.resourceStore)?.answer
        }
        #expect(refused?.status == 503)
        #expect(refused?.headers.contains { $0.name == "Retry-After" } == true)
    }
}
