import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// The admin endpoints hold every request's headers: who may read them.
@Suite struct AdminAccessTests {
    @Test func loopbackServerAnswersLocalHostsAndRefusesRebindingNames() async throws {
        try await withMockServer { server in
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/routes", headers: ["Host": "127.0.0.1:\(server.port)"]).status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/routes", headers: ["Host": "localhost:\(server.port)"]).status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/routes", headers: ["Host": "[::1]:\(server.port)"]).status == 200)
            let rebound = try RawHTTP.request(server.port, "GET", "/__mockapi/requests", headers: ["Host": "attacker.example:\(server.port)"])
            #expect(rebound.status == 403)
            #expect((rebound.json as? [String: Any])?["error"] as? String
                == "admin requests must name localhost or a loopback address as Host, not \"attacker.example:\(server.port)\" (a guard against DNS rebinding)")
            // Ordinary routes do not care about Host.
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Host": "attacker.example"]).status == 200)
        }
    }

    @Test func tokenIsRequiredWhenConfigured() async throws {
        try await withMockServer(configure: { $0.adminToken = "s3cret" }) { server in
            let withoutToken = try RawHTTP.request(server.port, "GET", "/__mockapi/requests")
            #expect(withoutToken.status == 403)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests", headers: ["Mockapi-Admin-Token": "wrong"]).status == 403)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests", headers: ["Mockapi-Admin-Token": "s3cret"]).status == 200)
        }
    }

    @Test func beyondLoopbackWithoutTokenAnswersNoAdminRequest() {
        let open = AdminAccess(token: nil, listensOnLoopbackOnly: AdminAccess.isLoopback("0.0.0.0"))
        #expect(open.refusal(headers: [("Host", "127.0.0.1:8080")])?.status == 403)
        #expect(AdminAccess.isLoopback("127.0.0.1") && AdminAccess.isLoopback("::1") && !AdminAccess.isLoopback("::"))
    }

    @Test func journalRedactsCredentialsByDefault() async throws {
        try await withMockServer { server in
            #expect(try RawHTTP.request(server.port, "GET", "/v1/users/self", headers: ["Authorization": "token abc123"]).status == 200)
            let journal = try #require(try RawHTTP.request(server.port, "GET", "/__mockapi/requests").json as? [[String: Any]])
            #expect((journal.last?["headers"] as? [String: String])?["Authorization"] == "token [redacted]")
        }
    }
}
