import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The acceptance capture (Resources/mobile-capture.har, written by make-mobile-capture.py): a
/// 66-route mobile API imported, then every recorded request sent again, unchanged, to a server
/// on the imported set.
struct CaptureReplayTests {
    static let capture = ImportFixtures.resources.appendingPathComponent("mobile-capture.har")
    static let recordedHost = "https://api.example.com"

    @Test func everyRecordedRequestReplaysAsRecordedWithNoClientRewriting() async throws {
        let archive = try HARArchive.load(Self.capture)
        let scratch = try ScratchFolder()
        let imported = HARImporter().importArchive(archive, file: "mobile-capture.har")
        #expect(imported.warnings == [])
        let set = try scratch.writeAndLoad(imported)
        #expect(set.contracts.count >= 65)
        try await withMockServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            let base = server.baseURL.absoluteString.trimmingCharacters(in: ["/"])
            for (index, entry) in archive.log.entries.enumerated() {
                let (data, response) = try await Self.send(entry.exchange, to: server.baseURL)
                let label = "entry \(index): \(entry.request.method) \(entry.request.url)"
                #expect(response.statusCode == entry.response.status, "\(label): \(String(decoding: data, as: UTF8.self))")
                let recorded = (entry.response.content?.text ?? "").replacingOccurrences(of: Self.recordedHost, with: base)
                if entry.response.content?.mimeType == "application/json", !recorded.isEmpty {
                    // Credentials an answer held (a login's `access_token`) are `[redacted]` in its fixture.
                    let expected = CredentialKeys.standard.redacting(try JSONParser.parse(recorded))
                    #expect(try JSONParser.parse(Array(data)) == expected, "\(label): \(String(decoding: data, as: UTF8.self))")
                } else {
                    #expect(String(decoding: data, as: UTF8.self) == recorded, "\(label)")
                }
            }
            let journal = server.journal()
            #expect(journal.count == archive.log.entries.count)
            #expect(journal.allSatisfy { $0.contract != nil && $0.problem == nil }, "\(journal.compactMap(\.problem))")
            // Uploads were checked part by part.
            #expect(journal.first { $0.contract == "post_v1_users_self_avatar" }?.parts.map(\.name) == ["image", "crop"])
        }
    }

    @Test func theCaptureHabitsBecomeContractFeatures() throws {
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(HARImporter().importFile(Self.capture))
        let projects = try #require(set.contract("get_v1_projects"))
        #expect(projects.request.query.map { "\($0.name):\($0.repeated)" } == ["page:false", "per_page:true"])
        #expect(projects.request.headers.map { "\($0.name) \($0.prefixes)" } == ["Authorization [\"token \"]", "X-Client-Version []"])
        #expect(try scratch.text("fixtures/projects/get_v1_projects.json").contains("\"{{baseURL}}/v1/projects?page=2&per_page=20\""))
        #expect(try scratch.text("fixtures/projects/get_v1_projects.json").contains("https://images.example-cdn.net/projects/42.jpg"))
        let poll = try #require(set.contract("get_v1_exports_id"))
        #expect(poll.sequence.map { $0.map { poll.responses[$0].name } } == ["default", "default", "done"])
        let login = try #require(set.contract("put_v1_auth_access_token_login"))
        #expect(login.request.match?.description == "json.intent = \"login\"")
        #expect(set.contract("put_v1_auth_access_token_signup")?.request.json?.map(\.key) == ["intent", "email", "password", "name", "newsletter"])
        #expect(set.contract("get_v1_users_self_queue_export_data")?.request.path.text == "/v1/users//self/queue_export_data")
        #expect(set.contract("get_v1_projects_999")?.responses.map(\.status) == [404])
        // The example keeps the request, minus credentials: no token, no password.
        let example = try #require(login.request.example)
        #expect(example.json?.objectValue?["password"] == .string("[redacted]"))
        let everything = try FileManager.default.subpathsOfDirectory(atPath: scratch.url.path)
            .compactMap { try? String(contentsOf: scratch.url.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(!everything.contains("token 5f1b2c3d4e"))
        #expect(!everything.contains("hunter22"))
    }

    /// A real answer that happens to hold `{{…}}` (a CMS template) is kept as the same JSON, not
    /// taken for a placeholder (which would fail the load, or be filled in).
    @Test func bracesARealAnswerHadAreKeptAsText() async throws {
        let body = #"{"subject": "Hi {{name}}", "next": "https://api.example.com/v1/mail?page={{query.page}}", "x": "{{{baseURL}}"}"#
        let exchange = RecordedExchange(
            method: "GET", url: "https://api.example.com/v1/mail", status: 200,
            responseHeaders: [HTTPField("Content-Type", "application/json")], responseBody: Array(body.utf8))
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(TrafficInference(source: "test").infer([exchange]))
        try await withMockServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            let (data, _) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("v1/mail"))
            let base = server.baseURL.absoluteString.trimmingCharacters(in: ["/"])
            #expect(try JSONParser.parse(Array(data)) == JSONParser.parse(body.replacingOccurrences(of: "https://api.example.com", with: base)))
        }
        #expect(set.contracts.count == 1)
    }

    /// The request as recorded: method, path and query byte for byte, every header, the body.
    static func send(_ exchange: RecordedExchange, to base: URL) async throws -> (Data, HTTPURLResponse) {
        let recorded = try #require(URLComponents(string: exchange.url))
        var url = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        url.percentEncodedPath = recorded.percentEncodedPath
        url.percentEncodedQuery = recorded.percentEncodedQuery
        var request = URLRequest(url: try #require(url.url))
        request.httpMethod = exchange.method
        for header in exchange.requestHeaders where !["host", "content-length"].contains(header.name.lowercased()) {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if !exchange.requestBody.isEmpty { request.httpBody = Data(exchange.requestBody) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }
}
