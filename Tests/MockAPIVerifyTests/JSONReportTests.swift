import Foundation
import MockAPIVerify
import Testing

/// `--format json`: a document CI tools can read, with a summary and one entry per route.
@Suite struct JSONReportTests {
    @Test func failingRunParsesWithSummaryAndRoutes() async throws {
        let report = try await runWithFailingBacking()

        let document = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["routes"] as? Int == 19)
        #expect(summary["passed"] as? Int == 18)
        #expect(summary["failed"] as? Int == 1)
        #expect(summary["exitCode"] as? Int == 1)
        #expect(summary["uncoveredContracts"] as? [String] == [])

        let routes = try #require(document["routes"] as? [[String: Any]])
        #expect(routes.map { $0["name"] as? String } == report.routes.map(\.name))
        #expect(routes.map { $0["contract"] as? String } == report.routes.map(\.contract))
        #expect(routes.filter { $0["outcome"] as? String == "fail" }.map { $0["name"] as? String } == ["backing"])
        #expect(routes.filter { $0["outcome"] as? String == "pass" }.count == 18)
        #expect(routes.allSatisfy { $0["failures"] is [Any] })

        let backing = try #require(routes.first { $0["name"] as? String == "backing" })
        let failures = try #require(backing["failures"] as? [[String: String]])
        #expect(failures.map { $0["check"] } == ["contract"])
        #expect(failures.first?["message"] == report.route("backing")?.failures.first?.message)
        let request = try #require(backing["request"] as? [String: Any])
        #expect(request["method"] as? String == "GET")
        #expect((request["url"] as? String)?.hasSuffix("/v1/projects/42/backer/2001") == true)
    }
}
