import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// A plain GET to a fixed answer is decided and journaled on libmicrohttpd's first call and sent
/// on its last (`RequestHandler.answerAtHead`). Sent by curl, so the headers are a real client's:
/// the connection stays open across requests, the body is the fixture's bytes, and the journal
/// keeps what curl sent, a bearer credential redacted and a long value cut. The headers are read
/// from the worker thread's scratch buffer (`RequestHandler.beginRequest`); a head too large for it from a copy.
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

    /// Heads on either side of the 8 KiB scratch buffer, on one connection and in turn, so a
    /// large head read from its own copy and a small one read from the scratch buffer (which the
    /// large one did not fit) are each journaled with their own headers, whole.
    @Test func headsLargerThanTheScratchBufferAreJournaledWhole() async throws {
        try await withMockServer { server in
            let url = server.baseURL.absoluteString + "/v1/categories"
            // Three values under the journal's 4 KiB cut, over 8 KiB together.
            let large = (1...3).map { ("X-Large-\($0)", String(repeating: Character(String($0)), count: 3_500)) }
            let largeArguments = large.flatMap { ["-H", "\($0.0): \($0.1)"] }
            // `--next` starts each transfer's options afresh; curl keeps the connection.
            var arguments = ["curl"]
            for index in 0..<4 {
                if index > 0 { arguments.append("--next") }
                arguments += ["-sS", "-w", "%{http_code} %{num_connects}\n", "-o", "/dev/null"]
                arguments += (index.isMultiple(of: 2) ? largeArguments : ["-H", "X-Small: \(index)"]) + [url]
            }
            let written = try ExternalTool.run(arguments).stdout
            #expect(written.split(separator: "\n") == ["200 1", "200 0", "200 0", "200 0"], "\(written)")

            let journal = try RawHTTP.request(server.port, "GET", "/__mockapi/requests").decoded([Entry].self)
            try #require(journal.count == 4)
            for (index, entry) in journal.enumerated() {
                #expect(entry.contract == "categories" && entry.status == 200)
                if index.isMultiple(of: 2) {
                    for (name, value) in large { #expect(entry.headers[name] == value, "\(index) \(name)") }
                    #expect(entry.headers["X-Small"] == nil)
                } else {
                    #expect(entry.headers["X-Small"] == "\(index)")
                    #expect(!entry.headers.keys.contains { $0.hasPrefix("X-Large") }, "\(entry.headers.keys)")
                }
            }
        }
    }
}
