import Foundation
import MockAPITestSupport
import Testing

/// Issue 27, items 4 and 9, against httpbin 0.10 from PyPI under gunicorn (a backend nobody here
/// wrote), read with curl (an outside client): what `record` writes, and what `import har` makes of
/// mitmproxy's HAR of the same requests, replay as httpbin answered them, with the headers a client
/// depends on (`Location`, `Set-Cookie` as redacted, `ETag`, `Cache-Control`, `Content-Range`,
/// `Content-Type`, the encoding); and the proxy's `HEAD` and 304 state httpbin's length, not 0.
@Suite(.serialized)
struct HTTPBinReplayTests {
    /// httpbin under gunicorn on 127.0.0.1, a free port; stopped by its PID.
    final class HTTPBin {
        private let running: ExternalTool.Running
        let url: String

        init() throws {
            running = try ExternalTool.start(["python3", RecordCommandTests.resources.appendingPathComponent("httpbin-backend.py").path])
            url = running.firstLine.replacingOccurrences(of: "listening on ", with: "")
        }

        static var installed: Bool {
            (try? ExternalTool.run(["python3", "-c", "import httpbin, gunicorn"]).status) == 0
        }

        deinit { running.stop(signal: SIGINT) }
    }

    /// mitmproxy's `mitmdump` as a reverse proxy to `target`, writing a HAR when stopped.
    final class MitmDump {
        private let running: ExternalTool.Running
        let url: String
        let har: URL

        /// On `PATH`, or where `scripts/setup` installs it (a virtual environment of its own, so
        /// its pinned dependencies leave the system's Python packages alone).
        static var executable: String? {
            let own = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/mockapi-mitmproxy/bin/mitmdump").path
            if FileManager.default.isExecutableFile(atPath: own) { return own }
            let found = try? ExternalTool.run(["sh", "-c", "command -v mitmdump"])
            return found?.status == 0 ? found?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }

        init(_ executable: String, target: String, har: URL) throws {
            self.har = har
            // SIGINT unblocked before the exec: a test's child may inherit a mask that blocks it,
            // and mitmdump writes the HAR only when it stops on it.
            let launcher = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); os.execv(sys.argv[1], sys.argv[1:])"
            running = try ExternalTool.start([
                "python3", "-c", launcher, executable, "--mode", "reverse:\(target)", "--listen-host", "127.0.0.1", "--listen-port", "0",
                "--set", "hardump=\(har.path)", "--set", "flow_detail=0",
            ])
            // `[13:38:18.161] reverse proxy to http://… listening at 127.0.0.1:50677.`
            let address = running.firstLine.firstMatch(of: /listening at (127\.0\.0\.1:\d+)/)?.1
            url = address.map { "http://\($0)" } ?? ""
        }

        /// Stops it; the HAR is written by then.
        func stop() { running.stop(signal: SIGINT) }
    }

    /// A request of the session: the path and query, and the headers curl adds.
    struct Check: CustomStringConvertible {
        var path: String
        var headers: [String] = []
        var description: String { path + (headers.isEmpty ? "" : " (\(headers.joined(separator: ", ")))") }
    }

    static let checks: [Check] = [
        Check(path: "/redirect-to?url=/get&status_code=302"),
        // The same path redirected elsewhere: a second response, not the first one's Location.
        Check(path: "/redirect-to?url=/ip&status_code=302"),
        // On httpbin's own host: replayed relative, so the client comes back to the mock.
        Check(path: "/absolute-redirect/1"),
        Check(path: "/cookies/set?a=b"),
        Check(path: "/etag/xyz"),
        Check(path: "/etag/x", headers: ["If-None-Match: \"x\""]),
        Check(path: "/gzip"),
        Check(path: "/deflate"),
        Check(path: "/brotli"),
        Check(path: "/response-headers?Cache-Control=max-age=60"),
        Check(path: "/cache/60"),
        Check(path: "/range/1024", headers: ["Range: bytes=0-99"]),
        Check(path: "/html"),
        Check(path: "/status/204"),
    ]

    /// One answer as curl read it: body decoded as a client that accepts gzip, deflate and br
    /// reads it (no `Accept-Encoding` sent, so httpbin's echoes are the same whichever way).
    struct Answer {
        var status = 0
        var headers: [(name: String, value: String)] = []
        var body = Data()

        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
    }

    static func fetch(_ base: String, _ check: Check, in folder: URL, head: Bool = false) throws -> Answer {
        let headFile = folder.appendingPathComponent("head-\(UUID().uuidString)"), bodyFile = folder.appendingPathComponent("body-\(UUID().uuidString)")
        let run = try Curl.run(
            ["-s", "--compressed", "-H", "Accept-Encoding:", "-D", headFile.path, "-o", bodyFile.path] + (head ? ["-I"] : [])
                + check.headers.flatMap { ["-H", $0] } + [base + check.path])
        #expect(run.status == 0, "curl \(base)\(check.path): \(run.stderr)")
        var answer = Answer()
        let head = String(decoding: (try? Data(contentsOf: headFile)) ?? Data(), as: UTF8.self)
        for line in head.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") {
                answer.status = Int(line.split(separator: " ")[1]) ?? 0
                answer.headers = []
            } else if let colon = line.firstIndex(of: ":") {
                answer.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        answer.body = (try? Data(contentsOf: bodyFile)) ?? Data()
        return answer
    }

    /// `a=b; Path=/` → `a=[redacted]; Path=/`: what a recorded `Set-Cookie` says.
    static func redacted(_ cookie: String) -> String {
        cookie.replacing(/^([^=;]*=)[^;]*/, with: { "\($0.1)[redacted]" })
    }

    /// How the mock's answer differs from httpbin's, in the parts a client depends on; empty when
    /// it replays identically. A link to httpbin's host is one to the mock's (`{{baseURL}}`).
    static func differences(_ direct: Answer, from directBase: String, _ mock: Answer, at mockBase: String) -> [String] {
        var found: [String] = []
        if direct.status != mock.status { found.append("status \(direct.status), replayed \(mock.status)") }
        let mockBody = Data(String(decoding: mock.body, as: UTF8.self).replacingOccurrences(of: mockBase, with: directBase).utf8)
        let sameBody: Bool
        if let a = canonicalJSON(direct.body), let b = canonicalJSON(mockBody) {
            sameBody = a == b
        } else {
            sameBody = direct.body == mock.body || direct.body == mockBody
        }
        if !sameBody { found.append("body \(direct.body.count) bytes, replayed \(mock.body.count): \(String(decoding: mock.body.prefix(200), as: UTF8.self))") }
        for name in ["Content-Type", "ETag", "Cache-Control", "Content-Range", "Accept-Ranges"] where direct.values(name) != mock.values(name) {
            found.append("\(name) \(direct.values(name)), replayed \(mock.values(name))")
        }
        // A Location resolves against the host it came from: httpbin's own host is the mock's.
        let locations = (direct.values("Location").map { $0.replacingOccurrences(of: directBase, with: "") }, mock.values("Location"))
        if locations.0 != locations.1 { found.append("Location \(locations.0), replayed \(locations.1)") }
        if direct.values("Set-Cookie").map(redacted) != mock.values("Set-Cookie") {
            found.append("Set-Cookie \(direct.values("Set-Cookie")), replayed \(mock.values("Set-Cookie"))")
        }
        // An encoding is replayed as it came, or decoded (the body, as curl decodes it, is compared
        // above): `record` keeps gzip and deflate decoded and br as it came, a HAR holds every body decoded.
        if !mock.values("Content-Encoding").isEmpty, mock.values("Content-Encoding") != direct.values("Content-Encoding") {
            found.append("Content-Encoding \(direct.values("Content-Encoding")), replayed \(mock.values("Content-Encoding"))")
        }
        // A 304 or 204 states no length it does not have.
        if [204, 304].contains(direct.status), direct.values("Content-Length") != mock.values("Content-Length") {
            found.append("Content-Length \(direct.values("Content-Length")), replayed \(mock.values("Content-Length"))")
        }
        return found
    }

    /// JSON with its keys sorted, or nil for a body that is not JSON.
    static func canonicalJSON(_ data: Data) -> Data? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// Sends every check to `base` (the recorder, mitmdump).
    static func drive(_ base: String, in folder: URL) throws {
        for check in checks {
            let answer = try fetch(base, check, in: folder)
            #expect(answer.status >= 200, "\(check) through \(base)")
        }
    }

    /// Serves `set` and compares each check's answer with httpbin's; the number replayed identically.
    static func replay(_ set: String, against httpbin: String, in folder: URL, label: String) throws -> Int {
        let server = try CommandLineRunner.Server(["--contracts", set + "/contracts", "--fixtures", set + "/fixtures", "--quiet"])
        defer { _ = server.stop() }
        var identical = 0
        for check in checks {
            let direct = try fetch(httpbin, check, in: folder), mock = try fetch(server.baseURL, check, in: folder)
            let found = differences(direct, from: httpbin, mock, at: server.baseURL)
            if found.isEmpty { identical += 1 } else { Issue.record("\(label) \(check): \(found.joined(separator: "; "))") }
        }
        print("\(label): \(identical)/\(checks.count) replayed as httpbin answered")
        return identical
    }

    @Test func recordedAndHARImportedSetsReplayTheHeadersAClientDependsOn() throws {
        guard HTTPBin.installed else {
            Issue.record("httpbin or gunicorn is not installed: run scripts/setup")
            return
        }
        let httpbin = try HTTPBin()
        let scratch = try RecordCommandTests.Scratch()

        let recorder = try CommandLineRunner.Server(["--target", httpbin.url, "--out", scratch.path("recorded"), "--quiet"], command: "record")
        try Self.drive(recorder.baseURL, in: scratch.url)
        let (stopped, stderr) = recorder.stop()
        #expect(stopped == 0, "\(stderr)")
        #expect(try Self.replay(scratch.path("recorded"), against: httpbin.url, in: scratch.url, label: "record → serve") == Self.checks.count)

        // With `--cors`, the mock's own CORS headers stand in for httpbin's recorded ones: one each.
        let cors = try CommandLineRunner.Server([
            "--contracts", scratch.path("recorded/contracts"), "--fixtures", scratch.path("recorded/fixtures"), "--cors", "--quiet",
        ])
        let answer = try Self.fetch(cors.baseURL, Check(path: "/etag/xyz"), in: scratch.url)
        #expect(answer.values("Access-Control-Allow-Origin") == ["*"] && answer.values("ETag") == ["xyz"], "\(answer.headers)")
        #expect(answer.values("Access-Control-Allow-Credentials").isEmpty, "\(answer.headers)")
        _ = cors.stop()

        guard let mitmdump = MitmDump.executable else {
            Issue.record("mitmproxy's mitmdump is not installed: run scripts/setup")
            return
        }
        let proxy = try MitmDump(mitmdump, target: httpbin.url, har: scratch.url.appendingPathComponent("session.har"))
        #expect(proxy.url.hasPrefix("http://127.0.0.1:"))
        try Self.drive(proxy.url, in: scratch.url)
        proxy.stop()
        let imported = try CommandLineRunner.run(["import", "har", proxy.har.path, "--out", scratch.path("imported")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.replay(scratch.path("imported"), against: httpbin.url, in: scratch.url, label: "mitmproxy HAR → import har → serve") == Self.checks.count)
    }

    /// A session cookie, a cookie the client sends and a token header httpbin answers with never
    /// reach a file in clear; the contracts keep the cookie's name and the header, redacted.
    @Test func cookieAndTokenValuesInAnswersAreRedactedInEveryFileWritten() throws {
        guard HTTPBin.installed else {
            Issue.record("httpbin or gunicorn is not installed: run scripts/setup")
            return
        }
        let httpbin = try HTTPBin()
        let scratch = try RecordCommandTests.Scratch()
        let secrets = ["sess-0123456789abcdef", "sid-value-424242", "tok-hdr-5678abcd"]
        let session = [
            Check(path: "/cookies/set?sessionid=sess-0123456789abcdef"),
            Check(path: "/cookies", headers: ["Cookie: sid=sid-value-424242; sessionid=sess-0123456789abcdef"]),
            Check(path: "/response-headers?X-Auth-Token=tok-hdr-5678abcd"),
        ]
        let recorder = try CommandLineRunner.Server(["--target", httpbin.url, "--out", scratch.path("recorded"), "--quiet"], command: "record")
        for check in session { _ = try Self.fetch(recorder.baseURL, check, in: scratch.url) }
        #expect(recorder.stop().status == 0)
        var files = try scratch.files(under: "recorded")
        if let mitmdump = MitmDump.executable {
            let proxy = try MitmDump(mitmdump, target: httpbin.url, har: scratch.url.appendingPathComponent("secrets.har"))
            for check in session { _ = try Self.fetch(proxy.url, check, in: scratch.url) }
            proxy.stop()
            let imported = try CommandLineRunner.run(["import", "har", proxy.har.path, "--out", scratch.path("imported")])
            #expect(imported.status == 0, "\(imported.stderr)")
            files.merge(try scratch.files(under: "imported").map { ("imported/" + $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        } else {
            Issue.record("mitmproxy's mitmdump is not installed: run scripts/setup")
        }
        for (path, bytes) in files {
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in secrets where path.contains(secret) || text.contains(secret) { Issue.record("\(secret) is in \(path):\n\(text)") }
        }
        let setCookie = files.filter { $0.key.hasSuffix("contracts/cookies/get_cookies_set.json") }
        #expect(setCookie.count == 2)
        for contract in setCookie.values {
            #expect(String(decoding: contract, as: UTF8.self).contains(#""Set-Cookie": "sessionid=[redacted]; Path=/""#))
        }
        let token = files.filter { $0.key.hasSuffix("contracts/response_headers/get_response_headers.json") }
        #expect(token.count == 2)
        for contract in token.values { #expect(String(decoding: contract, as: UTF8.self).contains(#""X-Auth-Token": "[redacted]""#)) }
    }

    /// `serve --proxy-unmatched`: a proxied HEAD states httpbin's Content-Length (not 0), and a
    /// 304 states none (not `Content-Length: 0`), read with `curl -sI` and `curl -D -`.
    @Test func theProxyStatesTheBackendsLengthForHEADAndNoneForA304() throws {
        guard HTTPBin.installed else {
            Issue.record("httpbin or gunicorn is not installed: run scripts/setup")
            return
        }
        let httpbin = try HTTPBin()
        let scratch = try RecordCommandTests.Scratch()
        let contracts = scratch.url.appendingPathComponent("contracts")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        try #"{"name": "ping", "request": {"method": "GET", "path": "/__ping"}, "responses": {"default": {"status": 204}}}"#
            .write(to: contracts.appendingPathComponent("ping.json"), atomically: true, encoding: .utf8)
        let server = try CommandLineRunner.Server(["--contracts", contracts.path, "--proxy-unmatched", httpbin.url, "--quiet"])
        defer { _ = server.stop() }

        for path in ["/get", "/html", "/bytes/192"] {
            let direct = try Self.fetch(httpbin.url, Check(path: path), in: scratch.url, head: true)
            let proxied = try Self.fetch(server.baseURL, Check(path: path), in: scratch.url, head: true)
            #expect(proxied.status == direct.status, "HEAD \(path)")
            #expect(!direct.values("Content-Length").isEmpty && proxied.values("Content-Length") == direct.values("Content-Length"), "HEAD \(path)")
            #expect(proxied.values("Content-Type") == direct.values("Content-Type"), "HEAD \(path)")
        }
        let notModified = Check(path: "/etag/x", headers: ["If-None-Match: \"x\""])
        let direct = try Self.fetch(httpbin.url, notModified, in: scratch.url), proxied = try Self.fetch(server.baseURL, notModified, in: scratch.url)
        #expect(direct.status == 304 && proxied.status == 304)
        #expect(direct.values("Content-Length").isEmpty && proxied.values("Content-Length").isEmpty, "\(proxied.headers)")
        #expect(proxied.values("ETag") == ["x"])
        // The 304 ends its connection (it states no length); the next request on a new one is answered.
        let twice = try Curl.run(["-s", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code} ", "-H", "If-None-Match: \"x\"", server.baseURL + "/etag/x", server.baseURL + "/get"])
        #expect(twice.stdout == "304 200 ", "\(twice.stdout) \(twice.stderr)")
    }
}
