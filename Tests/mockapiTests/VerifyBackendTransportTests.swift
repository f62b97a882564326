import Foundation
import MockAPITestSupport
import Testing

/// `verify-backend`'s exchanges (libcurl, issue 30 item 9): the request the backend gets is the
/// one built, sent straight to it whatever proxy the environment names; a 401 challenge, a
/// compressed body and a hostile head or body each end in an answer the report names. The
/// backend is Python's http.server, writing each request it gets (line, headers, body) to a log.
@Suite(.serialized)
struct VerifyBackendTransportTests {
    private static let backend = #"""
        import base64, gzip, http.server, json, ssl, sys
        log = open(sys.argv[1], "a")
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def answer(self, status, body=b'{"ok": true}', headers=()):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD": self.wfile.write(body)
            def handle_one(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                log.write(json.dumps({"line": self.requestline, "headers": list(self.headers.items()),
                                      "body": base64.b64encode(body).decode()}) + "\n"); log.flush()
                if self.path == "/private":
                    self.answer(401, b'{"error": "who"}', [("WWW-Authenticate", 'Basic realm="x"')])
                elif self.path == "/gzip":
                    self.answer(200, gzip.compress(b'{"ok": true}'), [("Content-Encoding", "gzip")])
                elif self.path == "/bomb":
                    # 64 MiB of JSON-looking text in a few hundred KB: the bound is on what it decodes to.
                    self.answer(200, gzip.compress(b"[" + b"0," * (32 << 20)), [("Content-Encoding", "gzip")])
                elif self.path == "/many-headers":
                    self.send_response(200)
                    for index in range(20000): self.send_header(f"X-Filler-{index}", str(index))
                    self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
                elif self.path == "/old":
                    self.answer(302, b"", [("Location", "/elsewhere")])
                else:
                    self.answer(201 if self.command == "POST" else 200)
            do_GET = do_POST = do_HEAD = do_DELETE = handle_one
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if len(sys.argv) > 3:  # https, with this certificate and key
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(f"http{'s' if len(sys.argv) > 3 else ''}://127.0.0.1:{server.server_port}", flush=True)
        server.serve_forever()
        """#

    private struct Logged: Decodable {
        var line: String
        var headers: [[String]]
        var body: String

        func values(_ name: String) -> [String] { headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] } }
        var bodyText: String { String(decoding: Data(base64Encoded: body) ?? Data(), as: UTF8.self) }
    }

    /// verify-backend over `contracts` against the backend (https with `tls`), with `environment`:
    /// its result and the requests the backend logged.
    private func verify(
        _ contracts: [String: String], arguments: [String] = [], environment: [String: String] = [:], tls: CertificatePair? = nil
    ) throws -> (CommandLineRunner.Result, [Logged], seconds: Double) {
        let set = try TemporaryContractSet(contracts: contracts, fixtures: ["ok.json": #"{"ok": true}"#, "error.json": #"{"error": "who"}"#])
        let log = set.root.appendingPathComponent("requests.log")
        let backend = try ExternalTool.start(["python3", "-c", Self.backend, log.path] + (tls.map { [$0.certificate, $0.key] } ?? []))
        defer { backend.stop() }
        #expect(backend.firstLine.hasPrefix(tls == nil ? "http://127.0.0.1:" : "https://127.0.0.1:"), "the backend did not start: \(backend.firstLine)")
        let started = Date()
        let result = try CommandLineRunner.run(
            ["verify-backend", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path, "--base-url", backend.firstLine, "--format", "text"]
                + arguments, environment: environment)
        let seconds = Date().timeIntervalSince(started)
        let lines = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let logged = try lines.split(separator: "\n").map { try JSONDecoder().decode(Logged.self, from: Data($0.utf8)) }
        return (result, logged, seconds)
    }

    private static func contract(_ name: String, _ method: String, _ path: String, example: String = "{}", status: Int = 200, fixture: String? = "ok.json")
        -> String
    {
        let response = fixture.map { #"{"status": \#(status), "fixture": "\#($0)"}"# } ?? #"{"status": \#(status)}"#
        return #"{"name": "\#(name)", "request": {"method": "\#(method)", "path": "\#(path)", "example": \#(example)}, "responses": {"default": \#(response)}}"#
    }

    /// Exactly the request built: method, headers, body and its length; nothing of libcurl's own
    /// but `Accept: */*` and a User-Agent; no cookie, no `Expect`; and straight to the backend,
    /// though every proxy variable names a port where nothing listens.
    @Test func theBackendGetsTheRequestBuiltAndNoProxyIsUsed() throws {
        let dead = "http://127.0.0.1:9"
        let (result, logged, _) = try verify(
            [
                "create.json": Self.contract(
                    "create", "POST", "/items", example: #"{"headers": {"X-Trace": "abc"}, "json": {"name": "x", "n": 2}}"#, status: 201),
                "peek.json": Self.contract("peek", "HEAD", "/items", fixture: nil),
                "search.json": Self.contract("search", "GET", "/search", example: #"{"query": {"q": "a b"}}"#),
            ], arguments: ["--allow-writes", "--concurrency", "1"],
            environment: ["http_proxy": dead, "HTTP_PROXY": dead, "https_proxy": dead, "HTTPS_PROXY": dead, "ALL_PROXY": dead, "all_proxy": dead])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let post = try #require(logged.first { $0.line.hasPrefix("POST ") }, "\(logged)")
        #expect(post.line == "POST /items HTTP/1.1")
        #expect(post.bodyText == #"{"name":"x","n":2}"#, "\(post.bodyText)")
        #expect(post.values("Content-Length") == [String(post.bodyText.utf8.count)])
        #expect(post.values("Content-Type") == ["application/json"])
        #expect(post.values("X-Trace") == ["abc"])
        #expect(post.values("User-Agent") == ["mockapi verify-backend"])
        #expect(post.values("Accept") == ["*/*"])
        #expect(post.values("Expect").isEmpty && post.values("Cookie").isEmpty && post.values("Transfer-Encoding").isEmpty, "\(post.headers)")
        let head = try #require(logged.first { $0.line.hasPrefix("HEAD ") }, "\(logged)")
        #expect(head.line == "HEAD /items HTTP/1.1" && head.body.isEmpty && head.values("Content-Length").isEmpty, "\(head)")
        let get = try #require(logged.first { $0.line.hasPrefix("GET ") }, "\(logged)")
        #expect(get.line == "GET /search?q=a%20b HTTP/1.1" && get.values("Content-Length").isEmpty, "\(get)")
    }

    /// A 401 asking for Basic is the answer (URLSession on Linux waited for ever on it), a 302 is
    /// not followed, and a gzip body is decoded before it is checked.
    @Test func aChallengeARedirectAndACompressedBodyAreAnswers() throws {
        let (result, logged, seconds) = try verify(
            [
                "private.json": Self.contract("private", "GET", "/private", status: 401, fixture: "error.json"),
                "old.json": Self.contract("old", "GET", "/old", status: 302, fixture: nil),
                "zipped.json": Self.contract("zipped", "GET", "/gzip"),
            ], arguments: ["--timeout", "5"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(seconds < 5, "\(seconds) s")
        #expect(["PASS private", "PASS old", "PASS zipped"].allSatisfy(result.stdout.contains), "\(result.stdout)")
        #expect(!logged.contains { $0.line.hasPrefix("GET /elsewhere") }, "the redirect was followed: \(logged.map(\.line))")
        let zipped = logged.first { $0.line.hasPrefix("GET /gzip") }
        #expect(zipped?.values("Accept-Encoding").first?.contains("gzip") == true, "\(String(describing: zipped))")
    }

    /// A head of 20,000 lines and a gzip body that decodes to 64 MiB are cut at their bounds,
    /// at once, and the checks fail saying so (the backend answered: exit 1, not 2).
    @Test func aHostileHeadOrBodyIsCutAndReported() throws {
        let (result, _, seconds) = try verify(
            ["headers.json": Self.contract("headers", "GET", "/many-headers"), "bomb.json": Self.contract("bomb", "GET", "/bomb")], arguments: ["--timeout", "20"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(seconds < 15, "\(seconds) s")
        #expect(
            result.stdout.contains("the answer's head has more than 1000 header lines or 262144 bytes; cut there and not checked"), "\(result.stdout)")
        #expect(result.stdout.contains("the answer's body is longer than 16777216 bytes; cut there and not checked"), "\(result.stdout)")
    }

    /// https with a CA the system does not know: refused, and trusted once `SSL_CERT_FILE` names it
    /// (OpenSSL's own variable; libcurl otherwise reads only its built-in bundle).
    @Test func aPrivateCAIsTrustedThroughSSLCertFile() throws {
        let pair = try CertificatePair()
        let contracts = ["search.json": Self.contract("search", "GET", "/search")]
        let (refused, none, _) = try verify(contracts, arguments: ["--timeout", "5"], tls: pair)
        #expect(refused.status == 2 && refused.stderr.contains("SSL certificate problem"), "\(refused.stdout)\(refused.stderr)")
        #expect(none.isEmpty)
        let (trusted, logged, _) = try verify(contracts, arguments: ["--timeout", "5"], environment: ["SSL_CERT_FILE": pair.certificate], tls: pair)
        #expect(trusted.status == 0 && trusted.stdout.contains("PASS search"), "\(trusted.stdout)\(trusted.stderr)")
        #expect(logged.map(\.line) == ["GET /search HTTP/1.1"])
    }
}
