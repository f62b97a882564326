import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import MockAPIVerify
import Testing

/// The human report: its route, warning and summary lines pinned verbatim (timings zeroed).
@Suite struct TextReportTests {
    @Test func failingRouteLineAndSummary() async throws {
        var report = try await runWithFailingBacking()
        report.seconds = 0

        let lines = TextReport.render(report).components(separatedBy: "\n")

        #expect(lines.first == "mockapi verify: 19 routes against \(report.target)")
        let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL") })
        #expect(
            lines[fail...].prefix(2) == [
                "FAIL  backing             GET /v1/projects/42/backer/2001",
                "      [contract]",
            ])
        #expect(lines.contains("PASS  update_backing      PUT /v1/projects/42/backers/2001"))
        #expect(lines.filter { $0.hasPrefix("FAIL") }.count == 1)
        #expect(lines.last == "19 routes: 18 passed, 1 failed, 0 drift warnings; 0 uncovered contracts (0.00 s)")
    }

    @Test func driftAndUncoveredContractsAreWarnings() async throws {
        let (set, fixtures) = try bundleWithOrphanAndUnreadKey()
        var report = try await verify(set)
        report.seconds = 0

        let lines = TextReport.render(report).components(separatedBy: "\n")

        let user = try #require(lines.firstIndex { $0.hasPrefix("PASS  user ") })
        #expect(lines[user + 1] == "      warning [drift] \(fixtures)/users/user.json: keys User never reads: nickname")
        #expect(
            lines.suffix(3) == [
                "warning  contracts no client route exercises: orphan",
                "",
                "19 routes: 19 passed, 0 failed, 1 drift warning; 1 uncovered contract (0.00 s)",
            ])
    }

    @Test func driftAndUncoveredContractsFailUnderStrict() async throws {
        let (set, fixtures) = try bundleWithOrphanAndUnreadKey()
        var report = try await verify(set, strict: true)
        report.seconds = 0

        let lines = TextReport.render(report).components(separatedBy: "\n")

        let user = try #require(lines.firstIndex { $0.hasPrefix("FAIL  user ") })
        #expect(
            lines[user...].prefix(3) == [
                "FAIL  user                GET /v1/users/1001",
                "      [drift]",
                "      \(fixtures)/users/user.json: keys User never reads: nickname",
            ])
        #expect(
            lines.suffix(3) == [
                "FAIL  contracts no client route exercises: orphan",
                "",
                "19 routes: 18 passed, 1 failed; 1 uncovered contract (0.00 s)",
            ])
    }

    /// The bundle plus a contract no route claims and a fixture key `User` never reads, and the
    /// fixtures folder as reports spell it.
    private func bundleWithOrphanAndUnreadKey() throws -> (TemporaryContractSet, String) {
        let set = try bundledCopy()
        try set.write(
            #"{"name": "orphan", "request": {"method": "GET", "path": "/v1/orphans"}, "responses": {"default": {"status": 200}}}"#,
            to: "contracts/orphan.json")
        try set.replace(
            #""backed_projects_count": 52,"#, with: #""backed_projects_count": 52, "nickname": "dana","#,
            in: "fixtures/users/user.json")
        return (set, try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures).fixturesDirectory)
    }
}
