import Foundation
import MockAPITestSupport
import Testing

/// `mockapi coverage` after a client run that is not Swift at all: curl sends the traffic.
@Suite struct CoverageCommandTests {
    @Test func unmatchedAndViolatingRequestsFailTheGateByName() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")
        #expect(try curlStatus(server.baseURL + "/v1/projects/42/backer/2001") == "404")
        #expect(
            try curlStatus(
                "-X", "PUT", server.baseURL + "/v1/projects/42/backers/2001", "-H", "Authorization: token t",
                "-H", "Content-Type: application/json", "-d", #"{"amount": "45", "reward_id": 9002}"#) == "422")
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("cov-\(UUID().uuidString)/reports/coverage.xml")
        defer { try? FileManager.default.removeItem(at: junit.deletingLastPathComponent().deletingLastPathComponent()) }

        let result = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--junit", junit.path])

        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                """
                FAIL  1 request matched no contract:
                      #2 GET /v1/projects/42/backer/2001 → 404: no contract matches GET /v1/projects/42/backer/2001 \
                (nearest backing: segment 4 is "backer", /v1/projects/{projectId:int}/backers/{backerId:int} expects "backers")
                """), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                """
                FAIL  1 request broke its contract:
                      #3 PUT /v1/projects/42/backers/2001 → 422 (contract update_backing): body.amount: expected number, found string
                """))
        #expect(result.stdout.contains("PASS  categories "))
        #expect(result.stdout.contains("warning  contracts no request exercised: activities, "))
        #expect(result.stdout.hasSuffix("3 requests: 1 unmatched, 1 breaking a contract; 1 of 19 contracts exercised\n"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="mockapi coverage" tests="21" failures="2" errors="0" skipped="18">"#))
        #expect(xml.contains(##"name="#2 GET /v1/projects/42/backer/2001"><failure type="unmatched""##))
    }

    @Test func cleanRunPassesAndStrictFailsOnUncoveredContracts() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")
        #expect(try curlStatus(server.baseURL + "/v1/users/self", "-H", "Authorization: token t") == "200")

        let clean = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--format", "json"])
        #expect(clean.status == 0, "\(clean.stdout)")
        let summary = try CoverageDocument.read(clean.stdout).summary
        #expect(summary.requests == 2)
        #expect(summary.uncoveredContracts.count == 17)
        #expect(!summary.uncoveredContracts.contains("categories"))

        let strict = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("FAIL  contracts no request exercised: activities, "))

        let later = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--since", "1", "--format", "json"])
        #expect(try CoverageDocument.read(later.stdout).summary.requests == 1)
    }

    @Test func requestsEvictedBeforeTheReadFailTheGate() throws {
        // Room for about nine of these requests: the first ones of the run are gone when coverage reads.
        let server = try CommandLineRunner.Server(["--quiet", "--journal-bytes", "40000"])
        defer { _ = server.stop() }
        _ = try curl(
            ["-H", "X-Padding: " + String(repeating: "p", count: 4_000)]
                + Array(repeating: server.baseURL + "/v1/categories", count: 30))

        let result = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                " requests were evicted from the journal before coverage read them, so they were not checked: "
                    + "raise serve --journal-bytes (or --journal-size), or read the journal sooner"), "\(result.stdout)")

        let json = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--format", "json"])
        let summary = try CoverageDocument.read(json.stdout).summary
        #expect(summary.evicted >= 15 && summary.evicted + summary.requests == 30, "\(summary)")
    }

    @Test func serverWithAnAdminTokenIsReadWithIt() throws {
        let server = try CommandLineRunner.Server(["--quiet", "--admin-token", "s3cret"])
        defer { _ = server.stop() }
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")

        let refused = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("cannot read the journal"))
        let coverage = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--admin-token", "s3cret"])
        #expect(coverage.status == 0, "\(coverage.stderr)")
        let verify = try CommandLineRunner.run(["verify", "--base-url", server.baseURL, "--admin-token", "s3cret"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("19 routes: 19 passed, 0 failed"))
    }

    /// 5,000 requests refused alike are two findings, each said once with a count and examples;
    /// no line runs on; `--format json` still lists every request.
    @Test func manyRequestsRefusedAlikeAreGroupedByContractAndReason() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        // curl's URL globbing: one process, one connection, 4,990 and then 10 requests.
        _ = try curl([server.baseURL + "/v1/projects/[1-4990]/backer/1"])
        _ = try curl([
            "-X", "PUT", server.baseURL + "/v1/projects/[1-10]/backers/2001", "-H", "Authorization: token t",
            "-H", "Content-Type: application/json", "-d", #"{"amount": "45", "reward_id": 9002}"#,
        ])

        let result = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])

        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 40, "\(result.stdout)")
        #expect(lines.allSatisfy { $0.count <= 400 })
        #expect(result.stdout.contains("FAIL  4990 requests matched no contract, in 1 group:\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "      4990 × GET /v1/projects/{id}/backer/{id} → 404: no contract matches GET /v1/projects/1/backer/1 (nearest backing: ")
        )
        #expect(
            result.stdout.contains(
                "          e.g. #1 GET /v1/projects/1/backer/1, #2 GET /v1/projects/2/backer/1, #3 GET /v1/projects/3/backer/1, and 4987 more\n"))
        #expect(
            result.stdout.contains(
                """
                FAIL  10 requests broke their contracts, in 1 group:
                      10 × PUT /v1/projects/{id}/backers/{id} → 422 (contract update_backing): body.amount: expected number, found string
                          e.g. #4991 PUT /v1/projects/1/backers/2001, #4992 PUT /v1/projects/2/backers/2001, #4993 PUT /v1/projects/3/backers/2001, and 7 more
                """), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("5000 requests: 4990 unmatched, 10 breaking a contract; 0 of 19 contracts exercised\n"))

        let json = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--format", "json"])
        let document = try CoverageDocument.read(json.stdout)
        #expect(document.unmatched.count == 4990)
        #expect(document.violations.count == 10)
    }

    /// A person opening the mock in a browser (`/`, then the icon the browser asks for) does not
    /// fail the next gate: those requests are reported apart, and counted as no client traffic.
    @Test func browsingTheMockIsReportedApartAndDoesNotFailTheGate() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let browser = ["-H", "Sec-Fetch-Mode: navigate", "-H", "Sec-Fetch-Dest: document", "-H", "Accept: text/html"]
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}"] + browser + [server.baseURL + "/"]) == "404")
        #expect(try curlStatus("-H", "Sec-Fetch-Mode: no-cors", "-H", "Sec-Fetch-Dest: image", server.baseURL + "/favicon.ico") == "404")

        let onlyBrowsing = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(onlyBrowsing.status == 1, "browsing alone is no client run: \(onlyBrowsing.stdout)")
        #expect(onlyBrowsing.stdout.contains("FAIL  no requests reached the server"))

        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")
        let result = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("note  2 requests from a browser, not counted: #1 GET / → 404, #2 GET /favicon.ico → 404\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("3 requests: 0 unmatched, 0 breaking a contract, 2 from a browser; 1 of 19 contracts exercised\n"))

        // The same path fetched by a client (no navigation) is the client's miss, and fails.
        #expect(try curlStatus(server.baseURL + "/") == "404")
        let json = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--format", "json"])
        #expect(json.status == 1)
        let document = try CoverageDocument.read(json.stdout)
        #expect(document.browsing.map(\.target) == ["/", "/favicon.ico"])
        #expect(document.unmatched.map(\.id) == [4])
    }

    /// A wrong or missing token is the server's guard saying no (403), not "not a mockapi server".
    @Test func wrongAdminTokenIsSaidAsTheServers403() throws {
        let server = try CommandLineRunner.Server(["--quiet", "--admin-token", "s3cret"])
        defer { _ = server.stop() }
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")

        let coverage = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--admin-token", "wrong"])
        #expect(coverage.status == 2)
        #expect(
            coverage.stderr.contains(
                "cannot read the journal at \(server.baseURL): the server answered 403 to GET /__mockapi/routes: the --admin-token given was refused "
                    + "(the server says: admin endpoints need the header Mockapi-Admin-Token with the server's --admin-token)"), "\(coverage.stderr)")
        #expect(!coverage.stderr.contains("did not answer with the route table"))

        let missing = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL])
        #expect(missing.stderr.contains("the server answered 403 to GET /__mockapi/routes: no --admin-token was given"), "\(missing.stderr)")

        let verify = try CommandLineRunner.run(["verify", "--base-url", server.baseURL, "--admin-token", "wrong"])
        #expect(verify.status == 2)
        #expect(
            verify.stderr.contains(
                "the mockapi server at \(server.baseURL) refused its admin endpoints: the server answered 403 to DELETE /__mockapi/scenarios: "
                    + "the --admin-token given was refused"), "\(verify.stderr)")
        #expect(!verify.stderr.contains("not a mockapi server"))
    }

    @Test func emptyJournalFailsTheGate() throws {
        // A client pointed at another URL sends nothing here: the gate must not go green.
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("cov-empty-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }

        let result = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--junit", junit.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("FAIL  no requests reached the server: is the client pointed at it?"), "\(result.stdout)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<failure type="no-requests" message="no requests reached the server: is the client pointed at it?"/>"#))

        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")
        let later = try CommandLineRunner.run(["coverage", "--base-url", server.baseURL, "--since", "1", "--format", "json"])
        #expect(later.status == 1, "nothing after --since 1")
        #expect(try CoverageDocument.read(later.stdout).summary.noRequests)
        #expect(try CommandLineRunner.run(["coverage", "--base-url", server.baseURL]).status == 0)
    }

    @Test func unreachableServerExitsTwo() throws {
        let result = try CommandLineRunner.run(["coverage", "--base-url", "http://127.0.0.1:1"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi coverage: cannot read the journal at http://127.0.0.1:1"))
    }
}
