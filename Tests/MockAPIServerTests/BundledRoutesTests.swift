import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct BundledRoutesTests {
    @Test func everyBundledContractServesItsDefaultResponseOverHTTP() async throws {
        try await withMockServer { server in
            let contracts = server.server.responder.set.contracts
            #expect(contracts.count >= 15)
            for contract in contracts {
                let response = try ConformingRequest.send(for: contract, port: server.port)
                let expected = contract.responses[contract.defaultResponseIndex]
                #expect(response.status == expected.status, "\(contract.name): \(response.text)")
                #expect(response.headers["mockapi-contract"] == contract.name)
                let body = expected.template?.render(baseURL: server.baseURL.absoluteString) ?? expected.body
                #expect(response.body == Data(body), "\(contract.name) body")
            }
            #expect(server.journal().map(\.contract) == contracts.map(\.name))
        }
    }

    @Test func literalSegmentWinsOverParameter() async throws {
        try await withMockServer { server in
            let me = try RawHTTP.request(server.port, "GET", "/v1/users/self", headers: ["Authorization": "token t"])
            let other = try RawHTTP.request(server.port, "GET", "/v1/users/42")
            #expect(me.headers["mockapi-contract"] == "current_user")
            #expect(other.headers["mockapi-contract"] == "user")
        }
    }

    @Test func nextPageURLOfTheActivitiesIsItselfServed() async throws {
        try await withMockServer { server in
            let first = try RawHTTP.request(server.port, "GET", "/v1/activities")
            let next = try first.decoded(ActivityPage.self, keys: .convertFromSnakeCase).urls.api.moreActivities
            #expect(next == "http://127.0.0.1:\(server.port)/v1/activities?cursor=2", "{{baseURL}} is this server, port 0 resolved")
            let second = try RawHTTP.request(server.port, "GET", String(next.dropFirst("http://127.0.0.1:\(server.port)".count)))
            #expect(second.status == 200)
            #expect(server.journal().last?.response == "page2")
        }
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            try client.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/categories/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try #require(try client.readResponse())
            let second = try #require(try client.readResponse())
            #expect(first.headers["mockapi-contract"] == "categories")
            #expect(first.headers["connection"]?.lowercased() != "close")
            #expect(second.headers["mockapi-contract"] == "category")
        }
    }
}

/// The bundled activities page (fixtures/activities/page1.json), as far as these tests read it.
private struct ActivityPage: Decodable {
    struct URLs: Decodable {
        struct API: Decodable { var moreActivities: String }
        var api: API
    }

    var urls: URLs
}
