import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Credentials in recorded requests never reach a written file in clear: not a rule, a name, an
/// example nor a fixture (issue 27: `"password": "pw-bob-123"` was a `when`, a response name and
/// a fixture name while the example said `[redacted]`).
struct CredentialInferenceTests {
    static func json(_ url: String, _ body: String, _ status: Int, _ answer: String, method: String = "POST") -> RecordedExchange {
        RecordedExchange(
            method: method, url: url, requestHeaders: [HTTPField("Content-Type", "application/json")], requestBody: Array(body.utf8),
            status: status, responseHeaders: [HTTPField("Content-Type", "application/json")], responseBody: Array(answer.utf8))
    }

    /// Every file the set writes, as text, by path.
    static func written(_ set: ImportedSet) throws -> (ScratchFolder, ContractSet, [String: String]) {
        let scratch = try ScratchFolder()
        let loaded = try scratch.writeAndLoad(set)
        var files: [String: String] = [:]
        for relative in FileManager.default.subpaths(atPath: scratch.url.path) ?? [] {
            let full = scratch.url.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try String(contentsOf: full, encoding: .utf8)
            }
        }
        return (scratch, loaded, files)
    }

    static func expectAbsent(_ secrets: [String], in files: [String: String], sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            for (path, text) in files where path.contains(secret) || text.contains(secret) {
                Issue.record("\(secret) is in \(path):\n\(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func theStandardPolicyMatchesNamesInAnyCaseAndWithAnySeparators() {
        let keys = CredentialKeys.standard
        for name in ["password", "Pass_Word", "PASSWD", "new-password", "client-secret", "clientSecret", "api_key", "X-Api-Key", "refresh_token", "pin", "OTP"] {
            #expect(keys.isCredential(name), "\(name)")
        }
        for name in ["username", "email", "token_type", "author", "shipping", "passenger", "key", "session", "type", "intent"] {
            #expect(!keys.isCredential(name), "\(name)")
        }
        #expect(CredentialKeys(extraNames: ["Member-Code"]).isCredential("member_code"))
        #expect(CredentialKeys.environmentName(forKey: "client-secret") == "MOCKAPI_SECRET_CLIENT_SECRET")
        #expect(CredentialKeys.environmentName(forKey: "Pass_Word") == "MOCKAPI_SECRET_PASS_WORD")
    }

    /// Two logins that differ only in the password: no rule on the password; the answers replay
    /// in the recorded order instead, and the second request still gets its 401.
    @Test func aPasswordIsNeverARuleNorANameAndTheAnswersReplayInOrder() async throws {
        let exchanges = [
            Self.json("https://api.example.com/v1/login", #"{"username":"bob","password":"pw-bob-123"}"#, 200, #"{"token":"tok-live-9f8e7d6c","user":"bob"}"#),
            Self.json(
                "https://api.example.com/v1/login", #"{"username":"bob","password":"pw-wrong-456"}"#, 401,
                #"{"error":"bad credentials","data":"{\"username\":\"bob\",\"password\":\"pw-wrong-456\"}"}"#),
        ]
        let (scratch, set, files) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        Self.expectAbsent(["pw-bob-123", "pw-wrong-456", "tok-live-9f8e7d6c", "pw_bob", "pw_wrong"], in: files)
        let contract = try #require(set.contract("post_v1_login"))
        #expect(contract.responses.allSatisfy { $0.when == nil })
        #expect(contract.responses.map(\.name) == ["default", "unauthorized"])
        #expect(contract.request.example?.json?.objectValue?["password"] == .string("[redacted]"))
        try await withMockServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            for (password, status) in [("pw-bob-123", 200), ("pw-wrong-456", 401)] {
                var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/login"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"username":"bob","password":"\#(password)"}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == status)
            }
        }
    }

    /// Another key that tells the requests apart is still used: the user name, never the password.
    @Test func anotherDistinguishingKeyIsPickedInsteadOfTheCredential() throws {
        let exchanges = [
            Self.json("https://api.example.com/v1/login", #"{"password":"pw-alice-111","user":"alice"}"#, 200, #"{"ok":true}"#),
            Self.json("https://api.example.com/v1/login", #"{"password":"pw-carol-222","user":"carol"}"#, 403, #"{"ok":false}"#),
        ]
        let (_, set, files) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        Self.expectAbsent(["pw-alice-111", "pw-carol-222"], in: files)
        let contract = try #require(set.contract("post_v1_login"))
        #expect(contract.responses[1].when?.description == "json.user = \"carol\"")
        #expect(contract.sequence == nil)
    }

    /// Hostile shapes: nested objects, arrays, odd case and separators, numbers, and a secret that
    /// is also a path segment (the API's own word: its path and links stay whole).
    @Test func secretsInNestedArraysOddKeysAndNumbersAreRedactedEverywhere() throws {
        let body = #"""
            {"profile":{"name":"bob","Pass_Word":"nested-pw-321"},"keys":[{"client-secret":"arr-secret-654"}],
             "tokens":["tok-a-111111","tok-b-222222"],"pin":987654,"password":"projects","remember":true}
            """#
        let echo = #"{"json":\#(body),"next":"https://api.example.com/v1/projects?page=2"}"#
        let exchanges = [
            Self.json("https://api.example.com/v1/settings", body, 200, echo),
            Self.json("https://api.example.com/v1/projects", "", 200, #"{"next":"https://api.example.com/v1/projects?page=2"}"#, method: "GET"),
            RecordedExchange(
                method: "GET", url: "https://api.example.com/v1/search?q=cats&api_key=query-key-777&Access-Token=query-tok-888",
                requestHeaders: [HTTPField("X-Api-Key", "header-key-999"), HTTPField("X-Client", "ios")], status: 200,
                responseHeaders: [HTTPField("Content-Type", "text/plain")], responseBody: Array("you sent header-key-999 and query-key-777".utf8)),
        ]
        let (_, set, files) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        Self.expectAbsent(
            ["nested-pw-321", "arr-secret-654", "tok-a-111111", "tok-b-222222", "987654", "query-key-777", "query-tok-888", "header-key-999"], in: files)
        let settings = try #require(set.contract("post_v1_settings")?.request.example?.json?.objectValue)
        #expect(settings["profile"]?.objectValue?["Pass_Word"] == .string("[redacted]"))
        #expect(settings["profile"]?.objectValue?["name"] == .string("bob"))
        #expect(settings["keys"] == .array([.object(JSONObject([("client-secret", .string("[redacted]"))]))]))
        #expect(settings["pin"] == .string("[redacted]"))
        #expect(settings["password"] == .string("[redacted]"))
        #expect(settings["remember"] == .bool(true))
        // The path segment equal to a password stays a path and a link.
        #expect(files["contracts/projects/get_v1_projects.json"]?.contains(#""path": "/v1/projects""#) == true)
        #expect(files["fixtures/projects/get_v1_projects.json"]?.contains("{{baseURL}}/v1/projects?page=2") == true)
        let search = try #require(set.contract("get_v1_search")?.request.example)
        #expect(search.query.map { "\($0.name)=\($0.value)" } == ["q=cats", "api_key=[redacted]", "Access-Token=[redacted]"])
        #expect(search.headers.map(\.name) == ["X-Client"])
    }

    /// Form fields and multipart text parts: their values are cut out of the answers that echo them.
    @Test func formAndMultipartCredentialsAreCutOutOfEchoedAnswers() throws {
        let boundary = "b0undary"
        let multipart =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"Client-Secret\"\r\n\r\nmp-secret-789\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--\(boundary)--\r\n"
        let exchanges = [
            RecordedExchange(
                method: "POST", url: "https://api.example.com/v1/session", requestHeaders: [HTTPField("Content-Type", "application/x-www-form-urlencoded")],
                requestBody: Array("username=bob&password=form+secret%21456".utf8), status: 200,
                responseHeaders: [HTTPField("Content-Type", "application/json")],
                responseBody: Array(#"{"form":{"username":"bob","pw":"form secret!456"},"data":"username=bob&password=form+secret%21456"}"#.utf8)),
            RecordedExchange(
                method: "POST", url: "https://api.example.com/v1/upload", requestHeaders: [HTTPField("Content-Type", "multipart/form-data; boundary=\(boundary)")],
                requestBody: Array(multipart.utf8), status: 200, responseHeaders: [HTTPField("Content-Type", "application/json")],
                responseBody: Array(#"{"form":{"echo":"mp-secret-789"},"files":{"file":"hello"}}"#.utf8)),
        ]
        let (_, _, files) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        Self.expectAbsent(["form secret!456", "form+secret%21456", "mp-secret-789"], in: files)
        #expect(files.values.contains { $0.contains("\"hello\"") }, "what is no secret stays")
    }

    /// A secret is cut where it stands whole, not out of a longer word: a cookie `theme=dark`
    /// left httpbin's `/html` reading "under cover of [redacted]ness" (found by scripts/backend-session).
    /// (The whole header value `theme=dark` is a secret too.)
    @Test func aSecretIsCutWhereItStandsWholeNotOutOfALongerWord() throws {
        let page = "<p>under cover of darkness, and darker yet: dark. theme=dark;darkroom 1dark</p>"
        let exchanges = [
            RecordedExchange(
                method: "GET", url: "https://api.example.com/v1/page", requestHeaders: [HTTPField("Cookie", "theme=dark")], status: 200,
                responseHeaders: [HTTPField("Content-Type", "text/html")], responseBody: Array(page.utf8))
        ]
        let (_, _, files) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        let fixture = try #require(files.first { $0.key.hasPrefix("fixtures/") }?.value)
        #expect(fixture == "<p>under cover of darkness, and darker yet: [redacted]. [redacted];darkroom 1dark</p>", "\(fixture)")
    }

    /// `--redact-key`: a name the user adds is a credential too.
    @Test func aUserAddedKeyIsRedacted() throws {
        let exchanges = [Self.json("https://api.example.com/v1/members", #"{"member_code":"mc-55555","name":"x"}"#, 201, #"{"id":1}"#)]
        let (_, plain, _) = try Self.written(TrafficInference(source: "test").infer(exchanges))
        #expect(plain.contract("post_v1_members")?.request.example?.json?.objectValue?["member_code"] == .string("mc-55555"))
        let (_, _, files) = try Self.written(TrafficInference(source: "test", credentials: CredentialKeys(extraNames: ["Member-Code"])).infer(exchanges))
        Self.expectAbsent(["mc-55555"], in: files)
    }
}
