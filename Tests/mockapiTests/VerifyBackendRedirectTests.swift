import Foundation
import MockAPITestSupport
import Testing

/// `verify-backend` takes a redirect as the backend's answer (issue 27, item 3): a contract that
/// declares a 3xx is checked against it, and a changed redirect is seen. The backend is Python's
/// http.server: /old answers 302 to /new (or 301 to /elsewhere), /new a JSON 200.
struct VerifyBackendRedirectTests {
    private static let backend = #"""
        import http.server, sys
        status, target = int(sys.argv[1]), sys.argv[2]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/old":
                    self.send_response(status); self.send_header("Location", target)
                    self.send_header("Content-Length", "0"); self.end_headers()
                else:
                    body = b'{"ok": true}'
                    self.send_response(200); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(f"http://127.0.0.1:{server.server_port}", flush=True)
        server.serve_forever()
        """#

    private func verify(backendStatus: Int, location: String) throws -> CommandLineRunner.Result {
        let set = try TemporaryContractSet(contracts: [
            "old.json": #"{"name": "old", "request": {"method": "GET", "path": "/old"}, "responses": {"default": {"status": 302, "headers": {"Location": "/new"}}}}"#
        ])
        let backend = try ExternalTool.start(["python3", "-c", Self.backend, String(backendStatus), location])
        defer { backend.stop() }
        #expect(backend.firstLine.hasPrefix("http://127.0.0.1:"), "the backend did not start: \(backend.firstLine)")
        return try CommandLineRunner.run([
            "verify-backend", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path, "--base-url", backend.firstLine,
            "--format", "text", "--timeout", "5",
        ])
    }

    @Test func aDeclaredRedirectPasses() throws {
        let result = try verify(backendStatus: 302, location: "/new")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS old"), "\(result.stdout)")
    }

    @Test func aChangedRedirectStatusFails() throws {
        let result = try verify(backendStatus: 301, location: "/new")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL old"), "\(result.stdout)")
        #expect(result.stdout.contains("301"), "\(result.stdout)")
    }
}
