import Foundation
import MockAPITestSupport
import Testing

/// `mockapi coverage` over sessions' journals (`--session`, `--all-sessions`) and over several
/// instances (`--base-url` repeated), read as one report. Two real `mockapi serve` processes,
/// traffic from curl.
@Suite struct CoverageSessionsCommandTests {
    static func summary(_ run: CommandLineRunner.Result) throws -> CoverageDocument.Summary {
        try CoverageDocument.read(run.stdout + run.stderr).summary
    }

    @Test func sessionsAndSeveralInstancesReadAsOneReport() throws {
        let first = try CommandLineRunner.Server(["--quiet"])
        defer { _ = first.stop() }
        let second = try CommandLineRunner.Server(["--quiet"])
        defer { _ = second.stop() }
        #expect(try curlStatus(first.baseURL + "/v1/categories") == "200")
        let created = try curl(["-X", "POST", second.baseURL + "/__mockapi/sessions"])
        struct Made: Decodable { var id: String }
        let session = try JSONDecoder().decode(Made.self, from: Data(created.utf8)).id
        #expect(try curlStatus(second.baseURL + "/s/\(session)/v1/categories/34") == "200")
        #expect(try curlStatus(second.baseURL + "/v1/nope", "-H", "Mockapi-Session: \(session)") == "404")
        let both = ["--base-url", first.baseURL, "--base-url", second.baseURL]

        // The server-wide journals only: the session's requests are not in them.
        let plain = try CommandLineRunner.run(["coverage", "--format", "json"] + both)
        #expect(plain.status == 0, "\(plain.stdout)")
        #expect(try Self.summary(plain).requests == 1)

        // Every session too: the unmatched request is named with the journal it is in.
        let all = try CommandLineRunner.run(["coverage", "--all-sessions"] + both)
        #expect(all.status == 1)
        #expect(all.stdout.hasPrefix("mockapi coverage: 3 requests journaled by \(first.baseURL), \(second.baseURL) (and all their sessions)\n"), "\(all.stdout)")
        #expect(all.stdout.contains("      #2 at \(second.baseURL)/s/\(session) GET /v1/nope → 404: no contract matches GET /v1/nope"), "\(all.stdout)")
        #expect(all.stdout.contains(/PASS  categories +1 served/))
        #expect(all.stdout.contains(/PASS  category +1 served/), "a contract counts when any instance served it")
        let json = try CommandLineRunner.run(["coverage", "--all-sessions", "--format", "json"] + both)
        let unmatched = try CoverageDocument.read(json.stdout).unmatched
        #expect(unmatched.first?.journal == "\(second.baseURL)/s/\(session)")

        // One session, from whichever instance has it.
        let one = try CommandLineRunner.run(["coverage", "--format", "json", "--session", session] + both)
        #expect(try Self.summary(one).requests == 2)
        #expect(one.status == 1)
    }

    @Test func whatCannotBeReadIsNamed() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")

        let down = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--base-url", "http://127.0.0.1:1"])
        #expect(down.status == 2)
        #expect(down.stderr.hasPrefix("mockapi coverage: cannot read the journal at http://127.0.0.1:1"), "\(down.stderr)")

        let unknown = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--session", "0123456789abcdef"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("mockapi coverage: no session 0123456789abcdef at \(server.baseURL) "), "\(unknown.stderr)")

        let malformed = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--session", "ABC"])
        #expect(malformed.status != 0)
        #expect(malformed.stderr.contains(#"--session "ABC" is not a session id"#), "\(malformed.stderr)")

        let since = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--base-url", server.baseURL, "--since", "1"])
        #expect(since.status != 0)
        #expect(since.stderr.contains("--since is a journal id of one journal"), "\(since.stderr)")

        let none = try CommandLineRunner.run(["coverage"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("--base-url"), "\(none.stderr)")
    }
}
