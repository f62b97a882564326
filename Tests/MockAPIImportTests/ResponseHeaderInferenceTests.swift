import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// Which recorded answer headers a contract keeps, and how (issue 27, item 4): the rules the
/// httpbin run (`HTTPBinReplayTests`) does not each show on its own.
struct ResponseHeaderInferenceTests {
    /// An exchange as `record --target https://api.example.com/api` keeps it (the app's path, no prefix).
    static func get(_ path: String, status: Int = 200, _ headers: [(String, String)], body: String = #"{"id": 1}"#) -> RecordedExchange {
        RecordedExchange(
            method: "GET", url: "https://api.example.com" + path, status: status, responseHeaders: headers.map { HTTPField($0.0, $0.1) },
            responseBody: Array(body.utf8))
    }

    /// The first contract's responses, as written, and the set loaded back.
    static func infer(_ exchanges: [RecordedExchange]) throws -> ([ContractDraft.Response], ContractSet) {
        let imported = TrafficInference(source: "test", baseURLs: ["https://api.example.com/api"]).infer(exchanges)
        let set = try ScratchFolder().writeAndLoad(imported)
        return (imported.contracts.first?.responses ?? [], set)
    }

    @Test func theHeadersAClientDependsOnAreKeptAndTheConnectionsAndServersAreNot() throws {
        let (responses, set) = try Self.infer([
            Self.get(
                "/v1/me",
                [
                    ("Content-Type", "application/json"), ("Content-Length", "9"), ("Date", "Thu, 26 Nov 2026 13:00:00 GMT"),
                    ("Server", "gunicorn"), ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5"), ("Transfer-Encoding", "chunked"),
                    ("Strict-Transport-Security", "max-age=31536000"), ("Alt-Svc", "h3=\":443\""), ("Mockapi-Contract", "me"),
                    (":status", "200"), ("ETag", "\"v1\""), ("Cache-Control", "max-age=60"), ("Vary", "Accept"),
                    ("Set-Cookie", "session=abc123secret; Path=/; HttpOnly"), ("Set-Cookie", "theme=dark"),
                    ("X-Auth-Token", "tok-9f8e7d"), ("Access-Control-Allow-Credentials", "true"),
                    ("Link", "<https://api.example.com/api/v1/me?page=2>; rel=\"next\", <https://cdn.example.com/x>; rel=\"icon\""),
                ])
        ])
        #expect(
            responses.first?.headers == [
                HTTPField("ETag", "\"v1\""), HTTPField("Cache-Control", "max-age=60"), HTTPField("Vary", "Accept"),
                HTTPField("Set-Cookie", "session=[redacted]; Path=/; HttpOnly"), HTTPField("Set-Cookie", "theme=[redacted]"),
                HTTPField("X-Auth-Token", "[redacted]"), HTTPField("Access-Control-Allow-Credentials", "true"),
                HTTPField("Link", "</v1/me?page=2>; rel=\"next\", <https://cdn.example.com/x>; rel=\"icon\""),
            ])
        // Both cookies come back from the loaded set, in order.
        #expect(set.contracts.first?.responses.first?.headers.filter { $0.name == "Set-Cookie" }.count == 2)
    }

    @Test func aContentTypeIsWrittenOnlyWhenTheFixtureWouldBeServedAsAnotherType() throws {
        let (_, set) = try Self.infer([
            Self.get("/v1/a", [("Content-Type", "application/json")]),
            Self.get("/v1/b", [("Content-Type", "application/problem+json; charset=utf-8")]),
            Self.get("/v1/c", status: 302, [("Content-Type", "text/html; charset=utf-8"), ("Location", "https://api.example.com/api/v1/a")], body: ""),
        ])
        #expect(set.contract("get_v1_a")?.responses.first?.contentType == "application/json")
        #expect(set.contract("get_v1_b")?.responses.first?.contentType == "application/problem+json; charset=utf-8")
        let redirect = try #require(set.contract("get_v1_c")?.responses.first)
        #expect(redirect.contentType == "text/html; charset=utf-8")
        // On the recorded host (prefix and all): relative, so the client comes back to the mock.
        #expect(redirect.headers == [HTTPField("Location", "/v1/a")])
    }

    /// Redirects elsewhere are two responses; an ETag alone does not make two.
    @Test func locationTellsAnswersApartAndAnETagDoesNot() throws {
        let (responses, _) = try Self.infer([
            Self.get("/v1/go?to=a", status: 302, [("Location", "/a"), ("ETag", "1")], body: ""),
            Self.get("/v1/go?to=b", status: 302, [("Location", "/b"), ("ETag", "2")], body: ""),
            Self.get("/v1/go?to=a", status: 302, [("Location", "/a"), ("ETag", "3")], body: ""),
        ])
        #expect(responses.map { "\($0.name) \($0.when?.description ?? "-") \($0.headers.map(\.value))" } == ["default - [\"/a\", \"1\"]", "to_b query.to = \"b\" [\"/b\", \"2\"]"])
    }
}
