import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// The request line as the client wrote it: long queries, encoded slashes and NULs.
struct RequestTargetTests {
    @Test func fiveHundredQueryArgumentsAreAnsweredAndJournaled() async throws {
        let query = Array(repeating: "category_ids[]=1", count: 500).joined(separator: "&")
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "GET", "/v1/discover?" + query)
            #expect(response.status == 200)
            #expect(response.headers["mockapi-contract"] == "discover")
            #expect(server.journal().last?.query.split(separator: "&").count == 500)
        }
    }

    @Test func requestLineLargerThanAConnectionHoldsGets414() async throws {
        let query = Array(repeating: "category_ids[]=1", count: 5000).joined(separator: "&") // 85 KB
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            client.receiveTimeout(seconds: 5)
            try client.send("GET /v1/discover?\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response?.status == 414)
            let next = try RawHTTP.request(server.port, "GET", "/v1/categories")
            #expect(next.status == 200)
        }
    }

    @Test func queryArgumentsAreDecodedAsBefore() async throws {
        try await withMockServer { server in
            let valid = try RawHTTP.request(server.port, "GET", "/v1/discover?sort=a+b%2Fc&page=2&category_ids[]=3")
            #expect(valid.status == 200)
            let notAnInt = try RawHTTP.request(server.port, "GET", "/v1/discover?page=x%20y")
            #expect(notAnInt.status == 422)
            #expect(notAnInt.text.contains("x y"), "\(notAnInt.text)")
        }
    }

    @Test func encodedSlashIsDataNotASegmentSeparator() async throws {
        try await withMockServer { server in
            let response = try RawHTTP.request(server.port, "GET", "/v1/projects/1%2Fbackers%2F2")
            // One segment after /v1/projects: the slug route, never the backing route.
            #expect(response.headers["mockapi-contract"] == "project_by_slug")
            #expect(server.journal().last?.path == "/v1/projects/1%2Fbackers%2F2")
            let unencoded = try RawHTTP.request(server.port, "GET", "/v1/projects/1/backers/2")
            #expect(unencoded.headers["mockapi-contract"] == "backing")
        }
    }

    @Test func encodedNULDoesNotCutThePathShort() async throws {
        try await withMockServer { server in
            let withNUL = try RawHTTP.request(server.port, "GET", "/v1/activities%00/evil")
            #expect(withNUL.status == 404)
            let otherEscape = try RawHTTP.request(server.port, "GET", "/v1/activiti%65s") // other escapes still decode
            #expect(otherEscape.status == 200)
        }
    }
}
