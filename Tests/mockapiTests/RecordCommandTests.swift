import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mockapi record` and `serve --proxy-unmatched` against a real backend on loopback: the Python
/// stand-in that answers from the acceptance capture (a second implementation, not mockapi).
@Suite(.serialized)
struct RecordCommandTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MockAPIImportTests/Resources")
    static let capture = resources.appendingPathComponent("mobile-capture.har")

    /// The capture's traffic sent through `record` gives the set `import har` gives.
    @Test func recordingTheCaptureTrafficGivesTheSetImportingTheCaptureGives() async throws {
        let backend = try Backend()
        defer { backend.stop() }
        let scratch = try Scratch()
        let recorder = try CommandLineRunner.Server(["--target", backend.url, "--out", scratch.path("recorded"), "--quiet"], command: "record")
        #expect(recorder.firstLine.hasPrefix("mockapi listening on http://127.0.0.1:"), "\(recorder.firstLine)")
        let entries = try Self.entries()
        for (index, entry) in entries.enumerated() {
            let (data, status) = try await Self.send(entry, to: recorder.baseURL)
            // The stand-in answers 400 when a body or a credential did not arrive as recorded.
            #expect(status == entry.status, "entry \(index): \(entry.method) \(entry.url): \(String(decoding: data, as: UTF8.self))")
        }
        let (status, _) = recorder.stop()
        #expect(status == 0)
        #expect(recorder.nextLine().hasPrefix("mockapi record: \(entries.count) exchanges: "))

        let imported = try CommandLineRunner.run(["import", "har", Self.capture.path, "--out", scratch.path("imported")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let recordedFiles = try scratch.files(under: "recorded"), importedFiles = try scratch.files(under: "imported")
        #expect(recordedFiles.keys.sorted() == importedFiles.keys.sorted())
        #expect(recordedFiles.count > 120)
        // The recording kept the answers' headers, among them the stand-in's own `X-Backend`, which
        // the capture never saw: without it, each file is the imported one.
        var kept = 0
        for (file, bytes) in importedFiles {
            let recorded = recordedFiles[file] ?? Data()
            let same: Bool
            if file.hasPrefix("contracts/"), var contract = try JSONSerialization.jsonObject(with: recorded) as? [String: Any],
                var responses = contract["responses"] as? [String: [String: Any]]
            {
                for (name, var response) in responses {
                    var headers = response["headers"] as? [String: Any] ?? [:]
                    if headers.removeValue(forKey: "X-Backend") as? String == "capture-backend" { kept += 1 }
                    response["headers"] = headers.isEmpty ? nil : headers
                    responses[name] = response
                }
                contract["responses"] = responses
                same =
                    try JSONSerialization.data(withJSONObject: contract, options: .sortedKeys)
                    == JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: bytes), options: .sortedKeys)
            } else {
                same = recorded == bytes
            }
            if !same { Issue.record("\(file) differs:\n\(String(decoding: recorded, as: UTF8.self))\n---\n\(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(kept >= importedFiles.keys.filter { $0.hasPrefix("contracts/") }.count, "every recorded response keeps the backend's headers")
        // No credential reached a file.
        #expect(!recordedFiles.values.contains { String(decoding: $0, as: UTF8.self).contains("token 5f1b2c3d4e") })
    }

    @Test func saveEndpointWritesWhatWasRecordedSoFar() async throws {
        let backend = try Backend()
        defer { backend.stop() }
        let scratch = try Scratch()
        let recorder = try CommandLineRunner.Server(["--target", backend.url, "--out", scratch.path("out"), "--quiet"], command: "record")
        let empty = try Curl.run(["-s", "-X", "POST", recorder.baseURL + "/__mockapi/record/save"])
        #expect(empty.stdout.contains("nothing recorded yet"))
        let entry = try #require(Self.entries().first { $0.url.hasSuffix("/v1/users/self") && $0.method == "GET" })
        _ = try await Self.send(entry, to: recorder.baseURL)
        let saved = try Curl.run(["-s", "-X", "POST", recorder.baseURL + "/__mockapi/record/save"])
        #expect(saved.stdout.contains("1 exchanges: 1 contracts, 1 responses, 1 fixtures written to"), "\(saved.stdout)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("out/contracts/users/get_v1_users_self.json")))
        _ = recorder.stop()
    }

    /// `--target http://host/api`: the app talks to the recorder without the prefix, and so do
    /// the contracts and the links in the fixtures.
    @Test func aTargetWithAPathPrefixRecordsThePathsTheAppSends() async throws {
        let backend = try Backend(prefix: "/api")
        defer { backend.stop() }
        let scratch = try Scratch()
        let recorder = try CommandLineRunner.Server(["--target", backend.url + "/api", "--out", scratch.path("out"), "--quiet"], command: "record")
        let entry = try #require(Self.entries().first { $0.url.hasSuffix("/v1/projects?page=1&per_page=20") })
        let (data, status) = try await Self.send(entry, to: recorder.baseURL)
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
        #expect(String(decoding: data, as: UTF8.self).contains("\"\(backend.url)/api/v1/projects?page=2&per_page=20\""))
        _ = recorder.stop()
        let contract = try String(contentsOfFile: scratch.path("out/contracts/projects/get_v1_projects.json"), encoding: .utf8)
        #expect(contract.contains("\"path\": \"/v1/projects\""), "\(contract)")
        let fixture = try String(contentsOfFile: scratch.path("out/fixtures/projects/get_v1_projects.json"), encoding: .utf8)
        #expect(fixture.contains("\"{{baseURL}}/v1/projects?page=2&per_page=20\""), "\(fixture)")
    }

    @Test func anHTTPSTargetIsTrustedThroughCAFileAndRefusedWithoutIt() throws {
        let target = try CommandLineRunner.Server(["--tls-self-signed", "--quiet"])
        defer { _ = target.stop() }
        let note = target.nextLine()
        let certificate = try #require(note.firstMatch(of: /: (\/.+\/cert\.pem)$/)?.1)
        let scratch = try Scratch()
        let trusting = try CommandLineRunner.Server(
            ["--target", target.baseURL, "--proxy-ca-file", String(certificate), "--out", scratch.path("a"), "--quiet"],
            command: "record")
        let through = try Curl.run(["-s", "-i", trusting.baseURL + "/v1/users/42"])
        #expect(through.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(through.stdout)")
        #expect(through.stdout.contains("Mockapi-Contract: user"), "the target's own headers come back")
        _ = trusting.stop()
        let refusing = try CommandLineRunner.Server(["--target", target.baseURL, "--out", scratch.path("b"), "--quiet"], command: "record")
        let refused = try Curl.run(["-s", "-i", refusing.baseURL + "/v1/users/42"])
        #expect(refused.stdout.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(refused.stdout)")
        #expect(refused.stdout.contains("certificate"), "\(refused.stdout)")
        _ = refusing.stop()
    }

    @Test func unmatchedRequestsGoToTheBackendAndCoverageCountsThemAsUncovered() throws {
        let backend = try Backend()
        defer { backend.stop() }
        let server = try CommandLineRunner.Server(["--proxy-unmatched", backend.url, "--quiet"])
        defer { _ = server.stop() }
        let mocked = try Curl.run(["-s", "-i", server.baseURL + "/v1/users/42"])
        #expect(mocked.stdout.contains("Mockapi-Contract: user"))
        let proxied = try Curl.run([
            "-s", "-i", "-H", "Authorization: token 5f1b2c3d4e", "-H", "X-Client-Version: 5.2.0",
            server.baseURL + "/v1/exports/77/download",
        ])
        #expect(proxied.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(proxied.stdout)")
        #expect(proxied.stdout.contains("X-Backend: capture-backend"))
        #expect(proxied.stdout.hasSuffix("id,project,amount\n1,42,25.00\n2,43,10.00\n"))
        let coverage = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(coverage.status == 1)
        #expect(
            coverage.stdout.contains("GET /v1/exports/77/download → 200: no contract matches GET /v1/exports/77/download; proxied to \(backend.url)"),
            "\(coverage.stdout)")
    }

    @Test func aSlowBackendHoldsNoWorkerThread() async throws {
        let backend = try Backend()
        defer { backend.stop() }
        let server = try CommandLineRunner.Server(["--proxy-unmatched", backend.url, "--threads", "1", "--quiet"])
        defer { _ = server.stop() }
        let sleeper = server.baseURL + "/__sleep/1500"
        let slow = Task.detached { try ExternalTool.run(["curl", "-s", "--max-time", "10", sleeper]) }
        try await Task.sleep(for: .milliseconds(200))
        let clock = ContinuousClock(), started = clock.now
        for _ in 0..<5 {
            let quick = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", server.baseURL + "/v1/users/42"])
            #expect(quick.stdout == "200")
        }
        #expect(clock.now - started < .milliseconds(1000), "one worker thread served others while the backend took 1.5 s")
        #expect(try await slow.value.stdout == "slept")
    }

    @Test func theTargetSeesTheClientsHeadersButNotItsConnectionsNorItsEncodingWhenRecording() throws {
        let backend = try Backend()
        defer { backend.stop() }
        let scratch = try Scratch()
        let headers = [
            "-H", "Authorization: token 5f1b2c3d4e", "-H", "X-Client-Version: 5.2.0", "-H", "Accept-Encoding: gzip",
            "-H", "Proxy-Authorization: Basic c2VjcmV0", "-H", "Keep-Alive: timeout=5", "-H", "TE: trailers",
        ]
        func seen(through base: String) throws -> [String: String] {
            let answer = try Curl.run(["-s"] + headers + [base + "/__headers"])
            let pairs = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [[String]] ?? []
            return Dictionary(pairs.map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { $1 })
        }
        let server = try CommandLineRunner.Server(["--proxy-unmatched", backend.url, "--quiet"])
        let proxied = try seen(through: server.baseURL)
        _ = server.stop()
        #expect(proxied["authorization"] == "token 5f1b2c3d4e")
        #expect(proxied["x-client-version"] == "5.2.0")
        #expect(proxied["accept-encoding"] == "gzip")
        #expect(proxied["host"] == String(backend.url.dropFirst("http://".count)))
        #expect(proxied["proxy-authorization"] == nil && proxied["keep-alive"] == nil && proxied["te"] == nil, "\(proxied)")
        let recorder = try CommandLineRunner.Server(["--target", backend.url, "--out", scratch.path("out"), "--quiet"], command: "record")
        let recorded = try seen(through: recorder.baseURL)
        _ = recorder.stop()
        #expect(recorded["accept-encoding"] == nil, "record asks the target for uncompressed bodies")
        #expect(recorded["authorization"] == "token 5f1b2c3d4e")
    }

    /// Issue 30 item 6: a 256 MiB answer is passed on as it arrives, never held whole: its first
    /// byte comes at once, and the server's peak memory stays put while its client reads slowly
    /// (main held it all: 4.5 s to the first byte of 1 GiB, 1.9 GB). `record` keeps the first
    /// `--max-recorded-body-bytes` of it, and says so.
    @Test func aLargeAnswerIsPassedOnAsItArrivesAndRecordKeepsItsFirstBytes() throws {
        let backend = try Backend()
        defer { backend.stop() }
        let server = try CommandLineRunner.Server(["--proxy-unmatched", backend.url, "--quiet"])
        defer { _ = server.stop() }
        let before = try Self.peakMegabytes(of: server.process.processIdentifier)
        // 2 s at 1 MB/s of 256 MiB: curl gives up (28) having read about 2 MB.
        let slow = try ExternalTool.run([
            "curl", "-s", "-o", "/dev/null", "--max-time", "2", "--limit-rate", "1M", "-w", "%{http_code} %{time_starttransfer}",
            server.baseURL + "/__bytes/268435456",
        ])
        let parts = slow.stdout.split(separator: " ")
        #expect(parts.first == "200", "\(slow.stdout)")
        #expect((parts.last.flatMap { Double($0) } ?? 99) < 1, "first byte after \(slow.stdout) s")
        let grown = try Self.peakMegabytes(of: server.process.processIdentifier) - before
        #expect(grown < 64, "the server's peak RSS grew by \(grown) MB for a client that read 2 MB")

        let scratch = try Scratch()
        let recorder = try CommandLineRunner.Server(
            ["--target", backend.url, "--out", scratch.path("out"), "--max-recorded-body-bytes", "1000"], command: "record")
        let whole = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{size_download}", recorder.baseURL + "/__bytes/300000"])
        #expect(whole.stdout == "300000", "the client gets every byte")
        let saved = try Curl.run(["-s", "-X", "POST", recorder.baseURL + "/__mockapi/record/save"])
        #expect(saved.stdout.contains("1 answer body cut short in the fixtures (--max-recorded-body-bytes): GET /__bytes/300000 (300000 bytes, 1000 kept)"), "\(saved.stdout)")
        _ = recorder.stop()
        let fixtures = try scratch.files(under: "out/fixtures")
        #expect(fixtures.values.map(\.count) == [1000], "\(fixtures.keys)")
        let refused = try CommandLineRunner.run(["record", "--target", backend.url, "--max-recorded-body-bytes", "-1"])
        #expect(refused.status != 0 && refused.stderr.contains("--max-recorded-body-bytes -1 is out of range"), "\(refused.stderr)")
    }

    /// The process's peak resident memory (VmHWM), in MB.
    static func peakMegabytes(of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    @Test func aBackendThatIsDownGets502() throws {
        let server = try CommandLineRunner.Server(["--proxy-unmatched", "http://127.0.0.1:9", "--quiet"])
        defer { _ = server.stop() }
        let answer = try Curl.run(["-s", "-i", server.baseURL + "/nowhere"])
        #expect(answer.stdout.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(answer.stdout)")
        let usage = try CommandLineRunner.run(["record", "--target", "ftp://example.com"])
        #expect(usage.status == 64)
    }

    // MARK: - Support

    struct Entry {
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: Data?
        var status: Int
    }

    static func entries() throws -> [Entry] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: capture)) as? [String: Any]
        let entries = (root?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        return entries.map { entry in
            let request = entry["request"] as? [String: Any] ?? [:]
            let headers = (request["headers"] as? [[String: String]] ?? []).map { ($0["name"] ?? "", $0["value"] ?? "") }
            let body = ((request["postData"] as? [String: Any])?["text"] as? String).map { Data($0.utf8) }
            return Entry(
                method: request["method"] as? String ?? "", url: request["url"] as? String ?? "", headers: headers, body: body,
                status: (entry["response"] as? [String: Any])?["status"] as? Int ?? 0)
        }
    }

    /// The recorded request, unchanged but for the host: path and query byte for byte, every header, the body.
    static func send(_ entry: Entry, to base: String) async throws -> (Data, Int) {
        let recorded = try #require(URLComponents(string: entry.url))
        var url = try #require(URLComponents(string: base))
        url.percentEncodedPath = recorded.percentEncodedPath
        url.percentEncodedQuery = recorded.percentEncodedQuery
        var request = URLRequest(url: try #require(url.url))
        request.httpMethod = entry.method
        for (name, value) in entry.headers { request.addValue(value, forHTTPHeaderField: name) }
        request.httpBody = entry.body
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    /// capture-backend.py on 127.0.0.1:0, stopped by its PID.
    final class Backend {
        private let running: ExternalTool.Running
        let url: String

        init(prefix: String? = nil) throws {
            running = try ExternalTool.start(
                [
                    "python3", RecordCommandTests.resources.appendingPathComponent("capture-backend.py").path,
                    RecordCommandTests.capture.path,
                ] + (prefix.map { ["0", $0] } ?? []))
            url = running.firstLine.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening on ", with: "")
        }

        func stop() {
            running.stop(signal: SIGTERM)
        }
    }

    /// A temporary folder, removed when released.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-record-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

        /// Every file under `folder`, by path relative to it.
        func files(under folder: String) throws -> [String: Data] {
            let root = url.appendingPathComponent(folder)
            var files: [String: Data] = [:]
            for relative in FileManager.default.subpaths(atPath: root.path) ?? [] {
                var isDirectory: ObjCBool = false
                let full = root.appendingPathComponent(relative)
                if FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[relative] = try Data(contentsOf: full)
                }
            }
            return files
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }
}
