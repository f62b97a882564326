import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// A plain GET to a fixed answer is decided and journaled on libmicrohttpd's first call and sent
/// on its last (`RequestHandler.answerAtHead`). Sent by curl, so the headers are a real client's:
/// the connection stays open across requests, the body is the fixture's bytes, and the journal
/// keeps what curl sent, a bearer credential redacted and a long value cut.
struct AnsweredFromTheHeadTests {
    struct Entry: Decodable { var path: String, contract: String?, response: String?, status: Int, headers: [String: String] }

    @Test func aRealClientsPlainGetsKeepTheConnectionAndAreJournaledAsSent() async throws {
        try await withMockServer { server in
            let url = server.baseURL.absoluteString + "/v1/categories"
            let long = String(repeating: "v", count: 5_000)
            let written = try ExternalTool.run([
                "curl", "-sS", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code} %{num_connects} %{size_download}\n",
                "-H", "Authorization: Bearer abc123", "-H", "X-Long: \(long)", url, url,
            ]).stdout
            let fixture = try Data(contentsOf: BundledAPI.fixtures.appendingPathComponent("categories/categories.json"))
            // The second request reuses the first's connection: no new connect.
            #expect(written.split(separator: "\n") == ["200 1 \(fixture.count)", "200 0 \(fixture.count)"], "\(written)")

            let journal = try RawHTTP.request(server.port, "GET", "/__mockapi/requests").decoded([Entry].self)
            #expect(journal.count == 2)
            for entry in journal {
                #expect(entry.path == "/v1/categories" && entry.contract == "categories" && entry.response == "default" && entry.status == 200)
                #expect(entry.headers["Authorization"] == "Bearer [redacted]")
                #expect(entry.headers["X-Long"] == String(long.prefix(HeaderFields.journalValueLimit)) + "…[truncated, 5000 bytes]")
                #expect(entry.headers["User-Agent"]?.hasPrefix("curl/") == true, "\(entry.headers)")
                #expect(entry.headers["Accept"] == "*/*")
            }
        }
    }
}
