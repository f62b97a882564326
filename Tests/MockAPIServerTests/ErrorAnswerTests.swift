import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct ErrorAnswerTests {
    @Test func unmatchedPathGets404NamingTheNearestContractsAndWhy() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "GET", "/v1/projects/1/backer/2")
            #expect(response.status == 404)
            let body = try #require(ProblemDocument(body: response.body), "\(response.text)")
            #expect(body.error == "no contract matches GET /v1/projects/1/backer/2")
            let nearest = try #require(body.nearest)
            #expect(nearest.first?.contract == "backing")
            #expect(nearest.first?.reason == #"segment 4 is "backer", /v1/projects/{projectId:int}/backers/{backerId:int} expects "backers""#)
            #expect(server.journal().last?.contract == nil)
            #expect(server.journal().last?.status == 404)
        }
    }

    @Test func theRootPointsAtTheRouteList() async throws {
        try await withMockServer { server in
            let root = try RawHTTP.request(server.port, "GET", "/")
            #expect(root.status == 404)
            let hint = ProblemDocument(body: root.body)?.hint
            #expect(hint == "this is mockapi serving 19 contracts: GET /__mockapi/routes lists them")
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/routes").status == 200)
        }
    }

    @Test func trailingSlashIsCalledOneAndItsContractComesFirst() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "GET", "/v1/categories/")
            #expect(response.status == 404)
            let nearest = try #require(ProblemDocument(body: response.body)?.nearest, "\(response.text)")
            #expect(nearest.first?.contract == "categories")
            #expect(nearest.first?.reason == "trailing slash: the contract's path is /v1/categories")
        }
    }

    @Test func wrongMethodGets405WithAllow() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "DELETE", "/v1/projects/1/backers/2")
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD, PUT", "HEAD is served from the GET contract")
        }
    }

    @Test func contractViolationsGet422ProblemListingEveryOne() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(
                server.port, "PUT", "/v1/projects/1/backers/2?x=1",
                headers: ["Content-Type": "application/json"], body: Data(#"{"amount": "ten"}"#.utf8))
            #expect(response.status == 422)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.headers["mockapi-contract"] == "update_backing")
            let body = try #require(ProblemDocument(body: response.body), "\(response.text)")
            let violations = (body.violations ?? []).map { "\($0.location): \($0.message)" }
            #expect(
                violations == [
                    "query.x: unexpected query key (the contract names: client_id)",
                    "header.Authorization: required header is missing",
                    "body.amount: expected number, found string",
                    "body.reward_id: required key is missing",
                ])
        }
    }

    @Test func preferHeaderPicksANamedResponse() async throws {
        try await withMockServer { server in
            let byName = try RawHTTP.request(server.port, "GET", "/v1/projects/1", headers: ["Prefer": "example=not_found"])
            #expect(byName.status == 404)
            #expect(try byName.decoded(ErrorEnvelope.self).ksrCode == "not_found")
            let byCode = try RawHTTP.request(server.port, "GET", "/v1/projects/1", headers: ["Prefer": "code=404"])
            #expect(byCode.status == 404)
            let unknown = try RawHTTP.request(server.port, "GET", "/v1/projects/1", headers: ["Prefer": "example=teapot"])
            #expect(unknown.status == 422)
        }
    }

    @Test func preferCodeThatIsNotANumberGets422() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "code=abc"])
            #expect(response.status == 422)
            #expect(response.text.contains("code=abc is not a status code"))
        }
    }

    @Test func sequencesAdvanceAndResetOverHTTP() async throws {
        let set = try TemporaryContractSet(contracts: [
            "flaky.json": #"""
            {"name": "flaky", "request": {"method": "GET", "path": "/flaky"},
             "responses": {"default": {"status": 200, "body": {"ok": true}}, "unavailable": {"status": 503}},
             "sequence": ["unavailable", "unavailable", "default"]}
            """#
        ])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let statuses = try (0..<4).map { _ in try RawHTTP.request(server.port, "GET", "/flaky").status }
            #expect(statuses == [503, 503, 200, 200])
            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/scenarios").status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/flaky").status == 503)
        }
    }
}

/// The bundled API's error body (fixtures/errors/*.json), as far as these tests read it.
private struct ErrorEnvelope: Decodable {
    var ksrCode: String
    enum CodingKeys: String, CodingKey { case ksrCode = "ksr_code" }
}
