import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `mockapi serve`'s request log on stderr, read from the real binary.
struct RequestLogCommandTests {
    @Test func eachLineHasATimestampTheQueryTheResponseNameAndWhyARefusalWasRefused() throws {
        let server = try CommandLineRunner.Server(["--max-json-bytes", "16"])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/discover?page=x"])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/activities?cursor=2"])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/projects/42/backer/2001"])
        _ = try Curl.run(["-s", "-o", "/dev/null", "-X", "DELETE", server.baseURL + "/v1/users/self"])
        _ = try Curl.run([
            "-s", "-o", "/dev/null", "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"amount": 45, "reward_id": 9002}"#,
            server.baseURL + "/v1/projects/42/backers/2001",
        ])
        let lines = server.stop().stderr.split(separator: "\n").map { $0.replacing(#/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} /#, with: "") }
            .map { $0.replacing(#/ [0-9]+\.[0-9]+ms/#, with: " _ms") }
        #expect(
            lines == [
                #"GET /v1/discover?page=x 422 discover _ms  query.page: expected int, found "x""#,
                "GET /v1/activities?cursor=2 200 activities/page2 _ms",
                "GET /v1/projects/42/backer/2001 404 - _ms  no contract matches GET /v1/projects/42/backer/2001 (nearest backing: segment 4 is \"backer\", /v1/projects/{projectId:int}/backers/{backerId:int} expects \"backers\")",
                "DELETE /v1/users/self 405 - _ms  DELETE is not allowed on /v1/users/self; the contracts allow GET, HEAD",
                "PUT /v1/projects/42/backers/2001 413 - _ms  the body is larger than the server's limit of 16 bytes (mockapi serve --max-json-bytes)",
                "mockapi: SIGTERM, stopped",
            ])
    }

    @Test func jsonFormatIsOneObjectPerLineWithEveryField() throws {
        let server = try CommandLineRunner.Server(["--log-format", "json"])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/discover?page=x"])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/users/42"])
        // The server's own messages (listening, stopped) are objects of their own; the requests' lines are these.
        let lines = server.stop().stderr.split(separator: "\n").filter { $0.hasPrefix(#"{"time""#) && $0.contains(#""method""#) }
        try #require(lines.count == 2)
        let refused = try #require(try JSONParser.parse(String(lines[0])).objectValue)
        #expect(Set(refused.keys) == ["time", "method", "path", "query", "status", "contract", "response", "ms", "problem"])
        #expect(refused["time"]?.stringValue?.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z/) != nil)
        #expect(refused["path"] == "/v1/discover")
        #expect(refused["query"] == "page=x")
        #expect(refused["status"] == 422)
        #expect(refused["contract"] == "discover")
        #expect(refused["response"] == .null)
        #expect(refused["problem"] == #"query.page: expected int, found "x""#)
        let served = try #require(try JSONParser.parse(String(lines[1])).objectValue)
        #expect(served["response"] == "default")
        #expect(served["problem"] == .null)
        #expect(["int", "number"].contains(served["ms"]?.typeName), "a number of milliseconds")
    }

    /// With `--log-format json` nothing on stderr is a plain line: the server's own messages
    /// (watching, listening, a reload, stopping) are objects with a level.
    @Test func jsonFormatMixesInNoPlainLine() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let server = try CommandLineRunner.Server(
            ["--log-format", "json", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/categories"])
        try set.write(#"{"name": "ping", "request": {"method": "GET", "path": "/ping"}, "responses": {"default": {"status": 204}}}"#, to: "contracts/ping.json")
        #expect(try within(10) { try curlStatus(server.baseURL + "/ping") == "204" })
        usleep(200_000) // the watcher says "reloaded" just after the new set serves
        let stderr = server.stop().stderr

        let lines = stderr.split(separator: "\n")
        let objects = lines.compactMap { try? JSONParser.parse(String($0)).objectValue }
        #expect(objects.count == lines.count, "plain lines: \(lines.filter { !$0.hasPrefix("{") })")
        let messages = objects.filter { $0["message"] != nil }
        #expect(messages.allSatisfy { Set($0.keys) == ["time", "level", "message"] })
        #expect(messages.first?["message"] == .string("watching \(set.contracts.path)/ and \(set.fixtures.path)/ for changes"))
        #expect(messages.contains { $0["message"]?.stringValue?.hasPrefix("mockapi listening on \(server.baseURL) (19 routes)") == true && $0["level"] == "info" })
        #expect(messages.contains { $0["message"] == "reloaded (20 routes)" && $0["level"] == "info" }, "\(stderr)")
        #expect(messages.last?["message"] == "SIGTERM, stopped")
        #expect(objects.contains { $0["method"] == "GET" && $0["path"] == "/v1/categories" })
    }

    @Test func verboseShowsRequestHeadersRedactedAndTheHeadersTheResponseSets() throws {
        let server = try CommandLineRunner.Server(["--verbose"])
        _ = try Curl.run(["-s", "-o", "/dev/null", "-H", "Authorization: token secret-value", "-A", "test-agent", server.baseURL + "/v1/users/self"])
        let stderr = server.stop().stderr
        let lines = stderr.split(separator: "\n")
        #expect(lines.first?.contains("GET /v1/users/self 200 current_user") == true, "\(stderr)")
        #expect(
            Array(lines.dropFirst().prefix(6)) == [
                "    > Host: \(server.baseURL.dropFirst("http://".count))",
                "    > User-Agent: test-agent",
                "    > Accept: */*",
                "    > Authorization: token [redacted]",
                "    < Content-Type: application/json",
                "    < Mockapi-Contract: current_user",
            ])
        #expect(!stderr.contains("secret-value"))
    }

    /// The rule `verify` follows for stdout (`OtherCommandTests`): one color policy.
    @Test func statusIsColoredOnATerminalOnlyWithoutNO_COLOROrTERMDumb() throws {
        for (environment, coloured) in [([:], true), (["NO_COLOR": "1"], false), (["TERM": "dumb"], false)] as [([String: String], Bool)] {
            let terminal = try PseudoTerminal()
            let (process, stdout, _) = CommandLineRunner.process(["serve", "--port", "0"], environment: environment)
            process.standardError = terminal.terminal
            try process.run()
            let firstLine = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
            let baseURL = try #require(firstLine.split(separator: " ").dropFirst(3).first.map(String.init))
            _ = try Curl.run(["-s", "-o", "/dev/null", baseURL + "/v1/users/42"])
            _ = try Curl.run(["-s", "-o", "/dev/null", baseURL + "/v1/nope"])
            process.terminate()
            process.waitUntilExit()
            let text = terminal.readAll()
            #expect(text.contains("GET /v1/users/42 \u{1B}[32m200\u{1B}[0m user") == coloured, "\(text)")
            #expect(text.contains("GET /v1/nope \u{1B}[33m404\u{1B}[0m -") == coloured, "\(text)")
            #expect(text.contains("GET /v1/users/42 200 user") == !coloured, "\(text)")
        }
    }

    @Test func pipedStderrIsNeverColoured() throws {
        let server = try CommandLineRunner.Server([])
        _ = try Curl.run(["-s", "-o", "/dev/null", server.baseURL + "/v1/users/42"])
        #expect(!server.stop().stderr.contains("\u{1B}"))
    }
}
