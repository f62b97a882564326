import Foundation
import MockAPITestSupport
import Testing

/// `verify-backend` checks the success answer it means to check (issue 27, item 7): a 404 the
/// contract declares, for an id the backend does not know, is no pass. The backend is Python's
/// http.server, which knows only project 7, account 3 and user 3; the contracts' examples carry
/// the app's id 1.
struct VerifyBackendReachTests {
    private static let backend = #"""
        import http.server, json
        known = {
            "/projects": {"projects": [{"id": 7, "name": "seven"}]},
            "/projects/7": {"id": 7, "name": 7},
            "/accounts/3": {"id": 3, "email": "three@example.com"},
            "/users/3": {"id": 3, "login": "three"},
        }
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                status, answer = (200, known[self.path]) if self.path in known else (404, {"error": "not found"})
                body = json.dumps(answer).encode()
                self.send_response(status); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(f"http://127.0.0.1:{server.server_port}", flush=True)
        server.serve_forever()
        """#

    private static let notFound = #""not_found": {"status": 404, "body": {"error": "missing"}}"#

    private func verify(_ extra: [String] = ["--format", "text"]) throws -> CommandLineRunner.Result {
        let set = try TemporaryContractSet(contracts: [
            "list_projects.json": #"""
            {"name": "list_projects", "request": {"method": "GET", "path": "/projects"},
             "responses": {"default": {"status": 200, "body": {"projects": [{"id": 1, "name": "one"}]}}}}
            """#,
            // Reached with the list's id 7, where the backend's name is a number: a drift to catch.
            "project.json": #"""
            {"name": "project", "request": {"method": "GET", "path": "/projects/{projectId:int}", "example": {"path": {"projectId": 1}}},
             "responses": {"default": {"status": 200, "body": {"id": 1, "name": "one"}}, \#(Self.notFound)}}
            """#,
            // Reached with the success fixture's own id.
            "account.json": #"""
            {"name": "account", "request": {"method": "GET", "path": "/accounts/{id:int}", "example": {"path": {"id": 1}}},
             "responses": {"default": {"status": 200, "body": {"id": 3, "email": "a@example.com"}}, \#(Self.notFound)}}
            """#,
            // No list, no known id anywhere: the 404 is all the backend gives.
            "user.json": #"""
            {"name": "user", "request": {"method": "GET", "path": "/users/{userId:int}", "example": {"path": {"userId": 1}}},
             "responses": {"default": {"status": 200, "body": {"id": 1, "login": "one"}}, \#(Self.notFound)}}
            """#,
            // A 404 asked for on purpose: the contract's own answer is the 404.
            "gone.json": #"""
            {"name": "gone", "request": {"method": "GET", "path": "/gone/{id:int}"},
             "responses": {"default": {"status": 404, "body": {"error": "missing"}}}}
            """#,
        ])
        let backend = try ExternalTool.start(["python3", "-c", Self.backend])
        defer { backend.stop() }
        #expect(backend.firstLine.hasPrefix("http://127.0.0.1:"), "the backend did not start: \(backend.firstLine)")
        return try CommandLineRunner.run(
            [
                "verify-backend", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path, "--base-url", backend.firstLine,
                "--timeout", "5",
            ] + extra)
    }

    @Test func aDeclared404ForAnUnknownIdIsNotAPass() throws {
        let result = try verify()
        let output = result.stdout
        #expect(result.status == 1, "\(output)\(result.stderr)")
        #expect(output.contains("NOT REACHED user"), "\(output)")
        #expect(output.contains("the backend answered 404 (declared by response \"not_found\") for path userId = 1"), "\(output)")
        #expect(output.contains("or declare a GET contract for /users whose items carry it"), "\(output)")
        #expect(!output.contains("PASS user"), "\(output)")
        // The planted drift behind the unknown id: reached through the set's GET list, and caught.
        #expect(output.contains("FAIL project"), "\(output)")
        #expect(output.contains("/projects/7"), "\(output)")
        #expect(output.contains("path projectId = 7 taken from GET /projects (list_projects)"), "\(output)")
        #expect(output.contains("$.name"), "\(output)")
        #expect(output.contains("PASS account"), "\(output)")
        #expect(output.contains("path id = 3 taken from the success fixture"), "\(output)")
        #expect(output.contains("PASS gone"), "\(output)")
        #expect(output.contains("PASS list_projects"), "\(output)")
        #expect(output.contains("3 passed, 1 failed, 1 not reached, 0 skipped"), "\(output)")
    }

    @Test func notReachedIsAFailureInJSONAndJUnit() throws {
        let junitFile = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-reach-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junitFile) }
        let json = try verify(["--format", "json", "--junit", junitFile.path])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains(#""notReached" : 1"#) || json.stdout.contains(#""notReached": 1"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""outcome" : "notReached""#) || json.stdout.contains(#""outcome": "notReached""#), "\(json.stdout)")
        let junit = (try? String(contentsOf: junitFile, encoding: .utf8)) ?? ""
        #expect(junit.contains(#"failures="2""#), "\(junit)")
        #expect(junit.contains(#"<failure type="not-reached""#), "\(junit)")
    }
}
