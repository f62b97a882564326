import Foundation
import MockAPITestSupport
import Testing

/// `mockapi verify-backend` against a backend that is not mockapi: `scripts/standin-backend`, a
/// Python server answering the bundled contracts from their fixtures, faithful or with a planted drift.
struct VerifyBackendCommandTests {
    /// The stand-in started with `drifts`, until `body` returns.
    private func withStandIn<T>(_ drifts: [String] = [], _ body: (String) throws -> T) throws -> T {
        let standIn = try ExternalTool.start(
            [
                "python3", BundledAPI.root.appendingPathComponent("scripts/standin-backend").path,
                "--contracts", BundledAPI.contracts.path, "--fixtures", BundledAPI.fixtures.path,
            ] + drifts)
        defer { standIn.stop() }
        let text = standIn.firstLine
        #expect(text.hasPrefix("listening on http://127.0.0.1:"), "the stand-in did not start: \(text)")
        return try body(text.replacingOccurrences(of: "listening on ", with: "").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aFaithfulBackendPassesEveryReadContract() throws {
        var baseURL = ""
        let result = try withStandIn { url in
            baseURL = url
            return try CommandLineRunner.run(["verify-backend", "--base-url", url])
        }
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("mockapi verify-backend: 19 contracts against \(baseURL): 10 passed, 0 failed, 9 skipped\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL"))
        #expect(
            result.stdout.contains("PASS backing  GET http://127.0.0.1:") && result.stdout.contains("/v1/projects/42/backers/2001 → 200"),
            "the request.example's path values are used")
    }

    @Test(arguments: [
        (
            ["--rename", "current_user:backed_projects_count:backed_count"], "current_user",
            "$.backed_projects_count: key backed_projects_count is missing from the backend's answer (fixture users/self.json)"
        ),
        (["--stringify", "backing:amount"], "backing", "$.amount: type changed from number to string (fixture backings/backing.json)"),
        (["--remove-route", "categories"], "categories", "status 404 is not one the contract declares (200)"),
        (["--require-query", "discover:region"], "discover", "status 400 is not one the contract declares (200)"),
    ])
    func aPlantedDriftFailsItsContractByName(drift: [String], contract: String, message: String) throws {
        let result = try withStandIn(drift) { try CommandLineRunner.run(["verify-backend", "--base-url", $0, "--format", "text"]) }
        #expect(result.status == 1)
        let failing = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(failing.count == 1, "\(failing)")
        #expect(failing.first?.hasPrefix("FAIL \(contract) ") == true)
        #expect(result.stdout.contains(message), "\(result.stdout)")
    }

    @Test func aBackendThatDoesNotAnswerExits2() throws {
        let result = try CommandLineRunner.run(["verify-backend", "--base-url", "http://127.0.0.1:9", "--timeout", "2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("http://127.0.0.1:9 does not answer"))
    }

    @Test func junitAndJSONReportTheSameResults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-backend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("reports/backend.xml")
        let result = try withStandIn(["--stringify", "backing:amount"]) {
            try CommandLineRunner.run(["verify-backend", "--base-url", $0, "--format", "json", "--junit", junit.path])
        }
        struct Counts: Decodable {
            var passed: Int
            var failed: Int
        }
        let counts = try JSONDecoder().decode(Counts.self, from: Data(result.stdout.utf8))
        #expect(counts.failed == 1)
        #expect(counts.passed == 9)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="mockapi verify-backend" tests="19" failures="1" errors="0" skipped="9""#))
        #expect(xml.contains(#"<failure type="backend" message="$.amount: type changed from number to string (fixture backings/backing.json)">"#))
    }
}
