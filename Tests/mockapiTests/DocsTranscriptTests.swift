import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// The transcripts of docs/ that the README did not pin before they moved (help screens, import
/// warnings, load errors, the server's refusals, an OpenAPI document served directly).
extension ReadmeTranscriptTests {
    /// Every `$ mockapi … --help` block of the docs is the binary's help, line for line.
    @Test func helpScreensAreTheBinarys() throws {
        let commands = Documentation.lines.map(\.line).filter { $0.hasPrefix("$ mockapi ") && $0.hasSuffix(" --help") }
        #expect(commands.count >= 11)
        for command in commands {
            let arguments = command.dropFirst("$ mockapi ".count).split(separator: " ").map(String.init)
            let run = try CommandLineRunner.run(arguments)
            #expect(run.status == 0, "\(command)")
            let documented = Self.transcript(String(command.dropFirst(2))).joined(separator: "\n")
            expectPinned(run.stdout.trimmingCharacters(in: .newlines), documented)
        }
    }

    @Test func mistypedCommand() throws {
        Self.expectTranscript(#"mockapi serv; echo "exit $?""#, matches: try Self.run(["serv"]))
    }

    /// docs/contract-format.md's set with three problems: bad JSON, an unknown method, a fixture
    /// outside fixtures/.
    @Test func lintOfABrokenSet() throws {
        let set = try TemporaryContractSet(contracts: [
            "a.json": "{",
            "b.json": #"{"name": "b", "request": {"method": "FETCH", "path": "/b"}, "responses": {"default": {"status": 200}}}"#,
            "c.json": #"{"name": "c", "request": {"method": "GET", "path": "/c"}, "responses": {"default": {"status": 200, "fixture": "../secrets.json"}}}"#,
        ])
        Self.expectTranscript(#"cd broken && mockapi lint; echo "exit $?""#, matches: try Self.run(["lint"], in: set.root))
    }

    @Test func importOpenAPIExamples() throws {
        let folder = try TemporaryContractSet(contracts: [:])
        let resources = BundledAPI.root.appendingPathComponent("Tests/MockAPIImportTests/Resources")
        Self.expectTranscript(
            "mockapi import openapi Tests/MockAPIImportTests/Resources/petstore.yaml --out petstore",
            matches: try Self.run(["import", "openapi", resources.appendingPathComponent("petstore.yaml").path, "--out", "petstore"], in: folder.root))
        Self.expectTranscript(
            "mockapi import openapi Tests/MockAPIImportTests/Resources/swagger2.yaml --out library",
            matches: try Self.run(["import", "openapi", resources.appendingPathComponent("swagger2.yaml").path, "--out", "library"], in: folder.root))
    }

    /// docs/server.md's 404 and 422 bodies, as curl prints them.
    @Test func refusalBodies() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let base = server.baseURL
        let notFound = try Curl.run(["-s", "\(base)/v1/projects/42/backer/2001"])
        Self.expectTranscript("curl -s http://127.0.0.1:8080/v1/projects/42/backer/2001", matches: notFound.stdout)
        let violation = try Curl.run([
            "-s", "-X", "PUT", "-H", "Authorization: token abc", "-H", "Content-Type: application/json",
            "-d", #"{"amount": "45", "rewardId": 9002}"#, "\(base)/v1/projects/42/backers/2001",
        ])
        Self.expectTranscript(
            #"curl -s -X PUT -H 'Authorization: token abc' -H 'Content-Type: application/json' -d '{"amount": "45", "rewardId": 9002}' http://127.0.0.1:8080/v1/projects/42/backers/2001"#,
            matches: violation.stdout)
    }

    /// The public Swagger petstore 3.1 of the OpenAPI corpus (beside the clone, as the corpus
    /// tests find it), served with --watch: a request without its credential, one with it, the
    /// document saved, one more request, SIGTERM.
    static let petstore31 = BundledAPI.root.deletingLastPathComponent().appendingPathComponent("shared/openapi-corpus/11-swagger-petstore31.yaml")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: petstore31.path), "needs ../shared/openapi-corpus"))
    func serveAnOpenAPIDocumentWithWatch() throws {
        let folder = try TemporaryContractSet(contracts: [:])
        let document = folder.root.appendingPathComponent("petstore.yaml")
        try FileManager.default.copyItem(at: Self.petstore31, to: document)
        let run = try CommandLineRunner.MergedRun(["serve", "--openapi", "petstore.yaml", "--watch", "--port", "0"], in: folder.root)
        let started = run.read(until: " routes)\n")
        let base = try #require(started.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/)).1
        _ = try Curl.run(["-s", "-o", "/dev/null", "\(base)/pet/10"])
        _ = try Curl.run(["-s", "-o", "/dev/null", "-H", "api_key: abc", "\(base)/pet/10"])
        run.read(until: " 200 get_pet_by_id ")
        let text = try String(contentsOf: document, encoding: .utf8)
        try (text + "\n").write(to: document, atomically: false, encoding: .utf8)
        run.read(until: "mockapi: reloaded")
        _ = try Curl.run(["-s", "-o", "/dev/null", "-H", "api_key: abc", "\(base)/pet/10"])
        run.read(until: " GET /pet/10 ", count: 3)
        let output = run.finish()

        Self.expectTranscript("mockapi serve --openapi petstore.yaml --watch", matches: output)
    }
}

/// The README's first contract: its files are the README's `<!-- file: PATH -->` blocks, written
/// where they say, and every transcript after them is a real run in that folder.
extension ReadmeTranscriptTests {
    /// The README's blocks marked `<!-- file: PATH -->`, by path.
    static func readmeFiles() -> [String: String] {
        let lines = Documentation.pages.first { $0.path == "README.md" }?.lines ?? []
        var files: [String: String] = [:]
        for (index, line) in lines.enumerated() {
            guard let path = line.firstMatch(of: /^<!-- file: (.+) -->$/)?.1, index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            files[String(path)] = lines[(index + 2)...].prefix { $0 != "```" }.joined(separator: "\n") + "\n"
        }
        return files
    }

    @Test func firstContractInFiveMinutes() throws {
        let files = Self.readmeFiles()
        #expect(files.keys.sorted() == ["hello/contracts/greeting.json", "hello/fixtures/greeting.json"])
        let folder = try TemporaryContractSet(contracts: [:])
        for (path, text) in files { try folder.write(text, to: path) }
        let hello = folder.root.appendingPathComponent("hello")
        Self.expectTranscript("cd hello && mockapi lint", matches: try Self.run(["lint"], in: hello))

        let server = try CommandLineRunner.Server(["--quiet"], directory: hello)
        defer { _ = server.stop() }
        #expect(server.firstLine == "mockapi listening on \(server.baseURL) (1 routes)")
        let base = server.baseURL
        let plain = try Curl.run(["-s", "\(base)/v1/greetings/7"])
        Self.expectTranscript("curl -s http://127.0.0.1:8080/v1/greetings/7", matches: plain.stdout)
        let named = try Curl.run(["-s", "-H", "Prefer: example=missing", "\(base)/v1/greetings/7"])
        Self.expectTranscript("curl -s -H 'Prefer: example=missing' http://127.0.0.1:8080/v1/greetings/7", matches: named.stdout)
        let refused = try Curl.run(["-s", "\(base)/v1/greetings/7?lang=de"])
        Self.expectTranscript(#"curl -s "http://127.0.0.1:8080/v1/greetings/7?lang=de""#, matches: refused.stdout)
        Self.expectTranscript(
            #"mockapi coverage --base-url http://127.0.0.1:8080; echo "exit $?""#,
            matches: try Self.run(["coverage", "--base-url", base]))
    }
}

/// The transcripts that need a real backend, with `scripts/standin-backend` as the backend, as
/// the docs say to start it (a Python server answering the bundled GET contracts from fixtures).
extension ReadmeTranscriptTests {
    /// The stand-in on a free port, with `drifts`, until `body` returns its URL's result.
    static func withStandIn<T>(_ drifts: [String] = [], _ body: (String) throws -> T) throws -> T {
        let standIn = try ExternalTool.start(
            [
                "python3", BundledAPI.root.appendingPathComponent("scripts/standin-backend").path,
                "--contracts", BundledAPI.contracts.path, "--fixtures", BundledAPI.fixtures.path,
            ] + drifts)
        defer { standIn.stop() }
        let url = standIn.firstLine.replacingOccurrences(of: "listening on ", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:"), "the stand-in did not start: \(standIn.firstLine)")
        return try body(url)
    }

    @Test func verifyBackendAgainstADriftedStandIn() throws {
        let output = try Self.withStandIn(["--stringify", "backing:amount", "--require-query", "discover:region"]) { url in
            try Self.run([
                "verify-backend", "--base-url", url, "--header", "Authorization: token abc123", "--contract", "backing", "--contract", "discover",
                "--contract", "current_user", "--contract", "category", "--contract", "update_backing",
            ])
        }
        Self.expectTranscript(
            #"mockapi verify-backend --base-url http://127.0.0.1:8090 --header "Authorization: token abc123" --contract backing --contract discover --contract current_user --contract category --contract update_backing"#,
            matches: output)
    }

    /// docs/server.md: only the users contracts served, the rest proxied to the stand-in.
    @Test func aMockForPartOfAnAPI() throws {
        try Self.withStandIn { url in
            let server = try CommandLineRunner.Server(["--contracts", "contracts/users", "--proxy-unmatched", url, "--quiet"])
            defer { _ = server.stop() }
            Self.expectTranscript("mockapi serve --contracts contracts/users --proxy-unmatched http://127.0.0.1:8090 --quiet &", matches: server.firstLine)
            let status = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}\n", "\(server.baseURL)/v1/categories"])
            Self.expectTranscript(#"curl -s -o /dev/null -w '%{http_code}\n' http://127.0.0.1:8080/v1/categories"#, matches: status.stdout)
            let coverage = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
            Self.expectTranscript("mockapi coverage --base-url http://127.0.0.1:8080 | head -4", matches: coverage.stdout)
        }
    }

    /// docs/commands.md: six requests recorded through the stand-in, then the routes of what was
    /// written. The temporary folder stands for the docs' `/home/me/app`.
    @Test func recordThroughTheStandIn() throws {
        let folder = try TemporaryContractSet(contracts: [:])
        let output = try Self.withStandIn { url in
            let run = try CommandLineRunner.MergedRun(["record", "--target", url, "--port", "0"], in: folder.root)
            let started = run.read(until: " into recorded)\n")
            let base = try #require(started.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/)).1
            let paths = ["/v1/projects/42", "/v1/projects/43", "/v1/categories", "/v1/activities", "/v1/activities?cursor=2", "/v1/users/self"]
            for (index, path) in paths.enumerated() {
                _ = try Curl.run(["-s", "-o", "/dev/null", "-H", "Authorization: token abc", "\(base)\(path)"])
                run.read(until: "; proxied to ", count: index + 1)
            }
            return run.finish()
        }
        Self.expectTranscript(
            "mockapi record --target http://127.0.0.1:8090 --port 8088", matches: output.replacingOccurrences(of: folder.root.path, with: "/home/me/app"))
        Self.expectTranscript(
            "mockapi routes --contracts recorded/contracts --fixtures recorded/fixtures",
            matches: try Self.run(["routes", "--contracts", "recorded/contracts", "--fixtures", "recorded/fixtures"], in: folder.root))
    }
}

extension ReadmeTranscriptTests {
    /// docs/contract-format.md's notes resource: a create, then an edit that would change the shape.
    @Test func aResourceCreatesAndRefusesAShapeChange() throws {
        let set = try TemporaryContractSet(
            contracts: [
                "list_notes.json": #"""
                {"name": "list_notes", "request": {"method": "GET", "path": "/v1/notes"},
                 "resource": {"name": "notes", "items": "/data"}, "responses": {"default": {"status": 200, "fixture": "notes.json"}}}
                """#,
                "create_note.json": #"""
                {"name": "create_note", "request": {"method": "POST", "path": "/v1/notes", "json": {"title": {"type": "string"}}},
                 "resource": {"name": "notes"}, "responses": {"default": {"status": 201, "fixture": "note.json"}}}
                """#,
                "edit_note.json": #"""
                {"name": "edit_note", "request": {"method": "PATCH", "path": "/v1/notes/{id:int}", "json": {}, "body": {"otherKeys": true}},
                 "resource": {"name": "notes"}, "responses": {"default": {"status": 200, "fixture": "note.json"}}}
                """#,
            ],
            fixtures: [
                "notes.json": #"{"data": [{"id": 1, "title": "Groceries", "done": false}], "next": null}"#,
                "note.json": #"{"id": 1, "title": "Groceries", "done": false}"#,
            ])
        let server = try CommandLineRunner.Server(["--quiet"], directory: set.root)
        defer { _ = server.stop() }
        let created = try Curl.run(["-s", "-X", "POST", "\(server.baseURL)/v1/notes", "-H", "Content-Type: application/json", "-d", #"{"title": "Call Ann"}"#])
        Self.expectTranscript(
            #"curl -s -X POST localhost:8080/v1/notes -H 'Content-Type: application/json' -d '{"title": "Call Ann"}'"#, matches: created.stdout)
        let refused = try Curl.run(["-s", "-X", "PATCH", "\(server.baseURL)/v1/notes/2", "-H", "Content-Type: application/json", "-d", #"{"done": "yes"}"#])
        Self.expectTranscript(
            #"curl -s -X PATCH localhost:8080/v1/notes/2 -H 'Content-Type: application/json' -d '{"done": "yes"}'"#, matches: refused.stdout)
    }
}

extension ReadmeTranscriptTests {
    /// docs/contract-format.md's echoed user: the fixture as the page shows it, the answer as curl
    /// prints it, with the UUID, the time and the port (which differ on every run) set aside.
    @Test func anAnswerEchoesTheRequestBody() throws {
        let fixture = try #require(
            Documentation.pages.first { $0.path == "docs/contract-format.md" }?.text.components(separatedBy: "```json\n").first { $0.hasPrefix("{\n  \"id\": \"{{uuid}}\"") }?.components(
                separatedBy: "\n```"
            ).first)
        let set = try TemporaryContractSet(
            contracts: [
                "create_user.json": #"""
                {"name": "create_user", "request": {"method": "POST", "path": "/v1/users",
                   "json": {"name": {"type": "string"}, "age": {"type": "int", "required": false},
                            "address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": false}}},
                 "responses": {"default": {"status": 201, "fixture": "users/created.json"}}}
                """#
            ], fixtures: ["users/created.json": fixture])
        let server = try CommandLineRunner.Server(["--quiet"], directory: set.root)
        defer { _ = server.stop() }
        let answer = try Curl.run([
            "-s", "\(server.baseURL)/v1/users", "-H", "Content-Type: application/json", "-d", #"{"name": "Ada \"the first\"", "age": 36, "address": {"city": "London"}}"#,
        ])
        func varying(_ text: String) -> String {
            Self.normalised(text).replacingOccurrences(of: #"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"#, with: "UUID", options: .regularExpression)
                .replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "TIME", options: .regularExpression)
                .replacingOccurrences(of: "127.0.0.1:PORT", with: "127.0.0.1:8080")
        }
        let documented = Self.transcript(#"curl -s localhost:8080/v1/users -H 'Content-Type: application/json' -d '{"name": "Ada \"the first\"", "age": 36, "address": {"city": "London"}}'"#)
        expectPinned(varying(answer.stdout.trimmingCharacters(in: .newlines)), varying(documented.joined(separator: "\n")))
    }
}

extension ReadmeTranscriptTests {
    /// docs/server.md's new session, its random id set aside.
    @Test func aSessionIsMadeWithItsBaseURL() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let made = try Curl.run(["-s", "-X", "POST", "\(server.baseURL)/__mockapi/sessions"])
        func varying(_ text: String) -> String {
            Self.normalised(text).replacingOccurrences(of: #"\b[0-9a-f]{16}\b"#, with: "ID", options: .regularExpression)
        }
        let documented = Self.transcript("curl -s -X POST http://127.0.0.1:8080/__mockapi/sessions")
        expectPinned(varying(made.stdout.trimmingCharacters(in: .newlines)), varying(documented.joined(separator: "\n")))
    }
}
