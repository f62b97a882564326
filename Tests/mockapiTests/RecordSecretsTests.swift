import Foundation
import MockAPITestSupport
import Testing

/// Logins with passwords (JSON, form, multipart), nested and listed credentials, a key in the
/// query and a header, sent through a real `mockapi record` to a real backend (the capture
/// stand-in answering a HAR this test writes, echoing the secrets as httpbin does); the same HAR
/// through `import har`. No file either writes holds a secret, the recorded set replays, and
/// `verify-backend` never sends the `[redacted]` marker as data (issue 27, item 2).
@Suite(.serialized)
struct RecordSecretsTests {
    typealias Entry = RecordCommandTests.Entry

    static let host = "https://api.example.com"
    static let boundary = "mockapi-test-boundary"
    /// Every secret the session sends or gets back.
    static let secrets = [
        "pw-bob-123", "pw-wrong-456", "tok-live-9f8e7d6c", "form-secret-456", "form-wrong-000", "mp-secret-789", "nested-pw-321",
        "arr-key-654", "987654", "query-key-777", "header-key-999",
    ]

    /// (request, answer status, answer JSON)
    static let session: [(Entry, String)] = {
        let json = [("Content-Type", "application/json")], form = [("Content-Type", "application/x-www-form-urlencoded")]
        let multipart =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"Client-Secret\"\r\n\r\nmp-secret-789\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--\(boundary)--\r\n"
        let settings = #"{"profile":{"name":"bob","Pass_Word":"nested-pw-321"},"keys":[{"api_key":"arr-key-654"}],"pin":987654}"#
        func entry(_ method: String, _ path: String, _ headers: [(String, String)], _ body: String?, _ status: Int) -> Entry {
            Entry(method: method, url: host + path, headers: headers, body: body.map { Data($0.utf8) }, status: status)
        }
        return [
            (
                entry("POST", "/v1/login", json, #"{"username":"bob","password":"pw-bob-123"}"#, 200),
                #"{"token":"tok-live-9f8e7d6c","user":{"name":"bob"}}"#
            ),
            (
                entry("POST", "/v1/login", json, #"{"username":"bob","password":"pw-wrong-456"}"#, 401),
                #"{"error":"bad credentials","data":"{\"username\":\"bob\",\"password\":\"pw-wrong-456\"}"}"#
            ),
            (entry("POST", "/v1/session", form, "username=bob&password=form-secret-456", 200), #"{"form":{"password":"form-secret-456","username":"bob"}}"#),
            (entry("POST", "/v1/session", form, "username=bob&password=form-wrong-000", 401), #"{"error":"bad credentials"}"#),
            (
                entry("POST", "/v1/upload", [("Content-Type", "multipart/form-data; boundary=\(boundary)")], multipart, 200),
                #"{"form":{"Client-Secret":"mp-secret-789"},"files":{"file":"hello"}}"#
            ),
            (entry("PUT", "/v1/settings", json, settings, 200), #"{"json":\#(settings)}"#),
            (
                entry("GET", "/v1/search?q=cats&api_key=query-key-777", [("X-Api-Key", "header-key-999")], nil, 200),
                #"{"args":{"api_key":"query-key-777","q":"cats"},"headers":{"X-Api-Key":"header-key-999"}}"#
            ),
        ]
    }()

    /// The session as a HAR 1.2 file.
    static func writeHAR(to url: URL) throws {
        let entries: [[String: Any]] = session.map { entry, answer in
            var request: [String: Any] = [
                "method": entry.method, "url": entry.url, "headers": entry.headers.map { ["name": $0.0, "value": $0.1] },
            ]
            if let body = entry.body {
                request["postData"] = ["mimeType": entry.headers.first { $0.0 == "Content-Type" }?.1 ?? "", "text": String(decoding: body, as: UTF8.self)]
            }
            return [
                "request": request,
                "response": [
                    "status": entry.status, "headers": [["name": "Content-Type", "value": "application/json"]],
                    "content": ["mimeType": "application/json", "text": answer],
                ],
            ]
        }
        try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]]).write(to: url)
    }

    /// The capture stand-in answering `har`, stopped by its PID.
    final class StandIn {
        private let running: ExternalTool.Running
        let url: String

        init(_ har: URL) throws {
            running = try ExternalTool.start(["python3", RecordCommandTests.resources.appendingPathComponent("capture-backend.py").path, har.path])
            url = running.firstLine.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening on ", with: "")
        }

        /// What it was sent: [method, path, body].
        func received() throws -> [[String]] {
            let answer = try Curl.run(["-s", url + "/__received"])
            return try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [[String]] ?? []
        }

        deinit { running.stop(signal: SIGTERM) }
    }

    static func expectNoSecret(in files: [String: Data], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for (path, bytes) in files {
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in secrets where path.contains(secret) || text.contains(secret) {
                Issue.record("\(secret) is in \(path):\n\(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func recordAndImportWriteNoSecretAndTheRecordingReplaysAndVerifiesWithoutTheMarker() async throws {
        let scratch = try RecordCommandTests.Scratch()
        let har = scratch.url.appendingPathComponent("session.har")
        try Self.writeHAR(to: har)

        // record, through a real proxy to the stand-in
        let backend = try StandIn(har)
        let recorder = try CommandLineRunner.Server(["--target", backend.url, "--out", scratch.path("recorded"), "--quiet"], command: "record")
        for (entry, _) in Self.session {
            let (data, status) = try await RecordCommandTests.send(entry, to: recorder.baseURL)
            #expect(status == entry.status, "\(entry.method) \(entry.url): \(String(decoding: data, as: UTF8.self))")
        }
        let (stopped, _) = recorder.stop()
        #expect(stopped == 0)
        let recorded = try scratch.files(under: "recorded")
        Self.expectNoSecret(in: recorded)
        let login = String(decoding: recorded.first { $0.key.hasPrefix("contracts/") && $0.key.hasSuffix("post_v1_login.json") }?.value ?? Data(), as: UTF8.self)
        #expect(login.contains(#""password": "[redacted]""#), "\(login)")
        #expect(!login.contains("\"when\""), "\(login)")

        // import har, the same session as a capture
        let imported = try CommandLineRunner.run(["import", "har", har.path, "--out", scratch.path("imported")])
        #expect(imported.status == 0, "\(imported.stderr)")
        Self.expectNoSecret(in: try scratch.files(under: "imported"))

        // The recording replays: each login gets the answer it got, though no rule names a password.
        let server = try CommandLineRunner.Server([
            "--contracts", scratch.path("recorded/contracts"), "--fixtures", scratch.path("recorded/fixtures"), "--quiet",
        ])
        for (entry, _) in Self.session.prefix(4) {
            let (_, status) = try await RecordCommandTests.send(entry, to: server.baseURL)
            #expect(status == entry.status, "replayed \(entry.method) \(entry.url)")
        }
        _ = server.stop()

        // verify-backend without the secrets: the contracts whose example holds [redacted] are
        // skipped, saying which variable to set, and the marker never reaches the backend.
        let verifyArguments = [
            "verify-backend", "--contracts", scratch.path("recorded/contracts"), "--fixtures", scratch.path("recorded/fixtures"),
            "--allow-writes", "--format", "text",
        ]
        let fresh = try StandIn(har)
        let blind = try CommandLineRunner.run(verifyArguments + ["--base-url", fresh.url])
        #expect(blind.stdout.contains("set MOCKAPI_SECRET_PASSWORD to send the real value"), "\(blind.stdout)")
        #expect(blind.stdout.contains("set MOCKAPI_SECRET_API_KEY"), "\(blind.stdout)")
        let sentBlind = try fresh.received()
        #expect(!sentBlind.isEmpty)
        #expect(!sentBlind.contains { $0.joined().contains("[redacted]") || $0.joined().contains("%5Bredacted%5D") }, "\(sentBlind)")
        #expect(!sentBlind.contains { $0[1] == "/v1/login" }, "\(sentBlind)")

        // With them, the login goes out with the real password and passes.
        let informed = try StandIn(har)
        let seeing = try CommandLineRunner.run(
            verifyArguments + ["--base-url", informed.url, "--contract", "post_v1_login", "--contract", "get_v1_search"],
            environment: ["MOCKAPI_SECRET_PASSWORD": "pw-bob-123", "MOCKAPI_SECRET_API_KEY": "query-key-777"])
        #expect(seeing.status == 0, "\(seeing.stdout)\(seeing.stderr)")
        let sent = try informed.received()
        #expect(sent.contains { $0 == ["POST", "/v1/login", #"{"username":"bob","password":"pw-bob-123"}"#] }, "\(sent)")
        #expect(sent.contains { $0[0] == "GET" && $0[1].contains("api_key=query-key-777") }, "\(sent)")
        #expect(!sent.contains { $0.joined().contains("redacted") }, "\(sent)")
    }

    @Test func redactKeyAddsANameToRecordAndImport() throws {
        let scratch = try RecordCommandTests.Scratch()
        let har = scratch.url.appendingPathComponent("member.har")
        try Data(
            #"""
            {"log": {"entries": [{"request": {"method": "POST", "url": "https://api.example.com/v1/members",
              "headers": [{"name": "Content-Type", "value": "application/json"}],
              "postData": {"mimeType": "application/json", "text": "{\"member_code\": \"mc-55555\", \"name\": \"x\"}"}},
              "response": {"status": 201, "content": {"mimeType": "application/json", "text": "{\"id\": 1}"}}}]}}
            """#.utf8
        ).write(to: har)
        let plain = try CommandLineRunner.run(["import", "har", har.path, "--out", scratch.path("plain")])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try scratch.files(under: "plain").values.contains { String(decoding: $0, as: UTF8.self).contains("mc-55555") })
        for (name, arguments, environment) in [
            ("flag", ["--redact-key", "Member-Code"], [:]), ("environment", [], ["MOCKAPI_REDACT_KEYS": "other, member_code"]),
        ] {
            let redacted = try CommandLineRunner.run(["import", "har", har.path, "--out", scratch.path(name)] + arguments, environment: environment)
            #expect(redacted.status == 0, "\(redacted.stderr)")
            #expect(!(try scratch.files(under: name).values.contains { String(decoding: $0, as: UTF8.self).contains("mc-55555") }), "\(name)")
        }
        let help = try CommandLineRunner.run(["record", "--help"])
        #expect(help.stdout.contains("--redact-key"))
    }
}
