import Foundation
import MockAPITestSupport
import Testing

/// Issue 27, item 5, against httpbin: one path sent a GET with and without a query, JSON, form
/// and multipart bodies, and `/status/201,400` (httpbin draws one of the two per request) sent
/// four times unchanged. What `record` writes, and what `import har` makes of mitmproxy's HAR,
/// replay each answer the client got while recording, in order.
extension HTTPBinReplayTests {
    /// A request of the body session: curl's arguments after the URL's path.
    struct Sent: CustomStringConvertible {
        var method = "GET"
        var path: String
        var curl: [String] = []
        var description: String { "\(method) \(path) \(curl.joined(separator: " "))" }
    }

    static func bodySession(file: URL) -> [Sent] {
        [
            // The query first: the GET without one still gets its own answer.
            Sent(path: "/anything?page=2"),
            Sent(path: "/anything"),
            Sent(path: "/anything?page=3"),
            Sent(method: "POST", path: "/anything", curl: ["-H", "Content-Type: application/json", "--data-binary", #"{"kind": "a"}"#]),
            Sent(method: "POST", path: "/anything", curl: ["-H", "Content-Type: application/json", "--data-binary", #"{"kind": "b"}"#]),
            Sent(method: "POST", path: "/anything", curl: ["--data", "kind=a"]),
            Sent(method: "POST", path: "/anything", curl: ["-F", "note=x", "-F", "file=@\(file.path);type=text/plain"]),
        ] + Array(repeating: Sent(path: "/status/201,400"), count: 8)
    }

    /// Status, content type (no parameters) and body, the ports in it as `PORT`: httpbin echoes
    /// the URL and `Host` it was sent, the mock's own or the proxy's.
    static func sendBody(_ base: String, _ sent: Sent, in folder: URL) throws -> (status: Int, type: String, body: String) {
        let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
        let run = try Curl.run(["-s", "-H", "Accept-Encoding:", "-X", sent.method, "-o", out.path, "-w", "%{http_code} %{content_type}"] + sent.curl + [base + sent.path])
        #expect(run.status == 0, "curl \(sent): \(run.stderr)")
        let fields = run.stdout.split(separator: " ", maxSplits: 1).map(String.init)
        let type = fields.count > 1 ? String(fields[1].split(separator: ";").first ?? "") : ""
        var body = (try? Data(contentsOf: out)) ?? Data()
        body = canonicalJSON(body) ?? body
        return (Int(fields.first ?? "") ?? 0, type, String(decoding: body, as: UTF8.self).replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:PORT"))
    }

    /// Sends the session through `proxy`, then the same requests to a mock of `set`; the number
    /// answered as while recording.
    static func replayBodies(through proxy: String, stop: () -> Void, set: () throws -> String, file: URL, folder: URL, label: String) throws -> Int {
        let session = bodySession(file: file)
        let recorded = try session.map { try sendBody(proxy, $0, in: folder) }
        stop()
        let written = try set()
        let server = try CommandLineRunner.Server(["--contracts", written + "/contracts", "--fixtures", written + "/fixtures", "--quiet"])
        defer { _ = server.stop() }
        var identical = 0
        for (sent, answer) in zip(session, recorded) {
            let mock = try sendBody(server.baseURL, sent, in: folder)
            if mock == answer {
                identical += 1
            } else {
                Issue.record("\(label) \(sent): recorded \(answer.status) \(answer.type) \(answer.body.prefix(300)), replayed \(mock.status) \(mock.type) \(mock.body.prefix(300))")
            }
        }
        print("\(label): \(identical)/\(session.count) replayed as recorded (201/400 draws: \(recorded.suffix(8).map(\.status)))")
        return identical
    }

    @Test func queriesBodyKindsAndRepeatedRequestsReplayInTheRecordedOrder() throws {
        guard HTTPBin.installed else {
            Issue.record("httpbin or gunicorn is not installed: run scripts/setup")
            return
        }
        let httpbin = try HTTPBin()
        let scratch = try RecordCommandTests.Scratch()
        let file = scratch.url.appendingPathComponent("note.txt")
        try Data("file bytes\n".utf8).write(to: file)
        let count = Self.bodySession(file: file).count

        let recorder = try CommandLineRunner.Server(["--target", httpbin.url, "--out", scratch.path("recorded"), "--quiet"], command: "record")
        let recorded = try Self.replayBodies(
            through: recorder.baseURL, stop: { #expect(recorder.stop().status == 0) }, set: { scratch.path("recorded") }, file: file, folder: scratch.url,
            label: "record → serve")
        #expect(recorded == count)

        guard let mitmdump = MitmDump.executable else {
            Issue.record("mitmproxy's mitmdump is not installed: run scripts/setup")
            return
        }
        let proxy = try MitmDump(mitmdump, target: httpbin.url, har: scratch.url.appendingPathComponent("bodies.har"))
        let imported = try Self.replayBodies(
            through: proxy.url, stop: proxy.stop,
            set: {
                let run = try CommandLineRunner.run(["import", "har", proxy.har.path, "--out", scratch.path("imported")])
                #expect(run.status == 0, "\(run.stderr)")
                return scratch.path("imported")
            }, file: file, folder: scratch.url, label: "mitmproxy HAR → import har → serve")
        #expect(imported == count)
    }
}
