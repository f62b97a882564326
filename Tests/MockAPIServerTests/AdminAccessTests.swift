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
            #expect(
                ProblemDocument(body: rebound.body)?.error
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

    /// Two token lines: whichever one a guard took, a proxy in front may have checked the other.
    @Test func twoTokenLinesAreRefusedWhicheverComesFirst() async throws {
        try await withMockServer(configure: { $0.adminToken = "s3cret" }) { server in
            for tokens in [["s3cret", "wrong"], ["wrong", "s3cret"], ["s3cret", "s3cret"]] {
                let client = try RawHTTP(port: server.port)
                try client.send(
                    "GET /__mockapi/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nMockapi-Admin-Token: \(tokens[0])\r\n"
                        + "Mockapi-Admin-Token: \(tokens[1])\r\nConnection: close\r\n\r\n")
                let response = try #require(try client.readResponse())
                #expect(response.status == 400, "\(tokens)")
                #expect(ProblemDocument(body: response.body)?.error == "Mockapi-Admin-Token is given more than once: send it once")
            }
        }
    }

    @Test func beyondLoopbackWithoutTokenAnswersNoAdminRequest() {
        let open = AdminAccess(token: nil, listensOnLoopbackOnly: AdminAccess.isLoopback("0.0.0.0"))
        #expect(open.refusal(method: "GET", headers: [("Host", "127.0.0.1:8080")])?.status == 403)
        #expect(AdminAccess.isLoopback("127.0.0.1") && AdminAccess.isLoopback("::1") && !AdminAccess.isLoopback("::"))
    }

    @Test func journalRedactsCredentialsByDefault() async throws {
        try await withMockServer { server in
            #expect(try RawHTTP.request(server.port, "GET", "/v1/users/self", headers: ["Authorization": "token abc123"]).status == 200)
            let journal = try RawHTTP.request(server.port, "GET", "/__mockapi/requests").decoded([SessionTests.Entry].self)
            #expect(journal.last?.headers["Authorization"] == "token [redacted]")
        }
    }

    /// A DNS name may begin with `127.`: only a dotted quad of four octets is an address.
    @Test func namesThatOnlyBeginLikeALoopbackAddressAreRefused() async throws {
        try await withMockServer { server in
            _ = try RawHTTP.request(server.port, "GET", "/v1/categories")
            for host in ["127.attacker.example", "127.0.0.1.nip.io", "127.0.0.1.nip.io:\(server.port)", "127.0.0.256", "127.1"] {
                #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests", headers: ["Host": host]).status == 403, "\(host)")
                #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/requests", headers: ["Host": host]).status == 403, "\(host)")
            }
            #expect(server.journal().count == 1, "no refused DELETE emptied the journal")
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count", headers: ["Host": "127.8.9.10"]).status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count", headers: ["Host": "LOCALHOST"]).status == 200)
        }
    }

    @Test func adminRequestsWithoutHostAreRefused() async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            try client.send("GET /__mockapi/requests HTTP/1.0\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.status == 403)
            #expect(ProblemDocument(body: response.body)?.error == "admin requests must carry a Host header")
        }
        try await withMockServer(configure: { $0.adminToken = "s3cret" }) { server in
            let client = try RawHTTP(port: server.port)
            try client.send("GET /__mockapi/requests HTTP/1.0\r\nMockapi-Admin-Token: s3cret\r\n\r\n")
            #expect(try client.readResponse()?.status == 403)
        }
    }

    /// A web page can POST to the mock without a preflight; a browser always says where from.
    @Test func adminWritesFromAPageOfAnotherOriginAreRefused() async throws {
        try await withMockServer(configure: { $0.reloadSource = (BundledAPI.contracts.path, BundledAPI.fixtures.path) }) { server in
            let own = "127.0.0.1:\(server.port)"
            let crossSite = try RawHTTP.request(
                server.port, "POST", "/__mockapi/reload",
                headers: ["Host": own, "Origin": "http://evil.example", "Content-Type": "text/plain"])
            #expect(crossSite.status == 403)
            #expect(
                ProblemDocument(body: crossSite.body)?.error
                    == "admin writes are refused from a web page of another origin (Origin: http://evil.example); "
                    + "send them without an Origin header (curl, a test), or from a page this server serves")
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload", headers: ["Host": own, "Origin": "null"]).status == 403)
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload", headers: ["Host": own, "Origin": "http://localhost:3000"]).status == 403)
            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/scenarios", headers: ["Host": own, "Sec-Fetch-Site": "cross-site"]).status == 403)
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload", headers: ["Host": own, "Origin": "http://\(own)"]).status == 200)
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload", headers: ["Host": own]).status == 200, "curl sends no Origin")
            #expect(
                try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count", headers: ["Host": own, "Origin": "http://evil.example"]).status == 200,
                "reads keep the Host rule alone")
        }
    }

    /// `cafe\u{301}` and `café` are one String to Swift, two byte sequences on the wire.
    @Test func theTokenIsComparedByteForByte() async throws {
        let precomposed = "caf\u{e9}", decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed, "Swift's String equality is what let the decomposed form in")
        try await withMockServer(configure: { $0.adminToken = precomposed }) { server in
            var statuses: [Int] = []
            for token in [precomposed, decomposed, "caf", precomposed + "x"] {
                statuses.append(try RawHTTP.request(server.port, "GET", "/__mockapi/requests", headers: ["Mockapi-Admin-Token": token]).status)
            }
            #expect(statuses == [200, 403, 403, 403])
        }
    }

    @Test func theUsualCredentialHeadersAndNamedOnesAreRedacted() async throws {
        try await withMockServer(configure: { $0.redactedHeaders = ["X-Signature"] }) { server in
            let sent = [
                "X-Api-Key": "k-1", "X-Auth-Token": "t-1", "Client-Secret": "s-1", "Cookie": "session=c-1; theme=dark",
                "Proxy-Authorization": "Basic cC0x", "X-Signature": "sig-1", "X-Trace": "kept",
            ]
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories", headers: sent).status == 200)
            let journal = try RawHTTP.request(server.port, "GET", "/__mockapi/requests").decoded([SessionTests.Entry].self)
            let headers = try #require(journal.last?.headers)
            for name in ["X-Api-Key", "X-Auth-Token", "Client-Secret", "Cookie", "X-Signature"] {
                #expect(headers[name] == "[redacted]", "\(name)")
            }
            #expect(headers["Proxy-Authorization"] == "Basic [redacted]")
            #expect(headers["X-Trace"] == "kept")
        }
    }
}
