import Foundation
import MockAPIVerify
import Testing

/// `--format json`: a document CI tools can read, with a summary and one entry per route.
@Suite struct JSONReportTests {
    @Test func failingRunParsesWithSummaryAndRoutes() async throws {
        let report = try await runWithFailingBacking()

        let document = try JSONDecoder().decode(Document.self, from: Data(JSONReport.render(report).utf8))
        #expect(document.summary == Document.Summary(routes: 19, passed: 18, failed: 1, exitCode: 1, uncoveredContracts: []))

        let routes = document.routes
        #expect(routes.map(\.name) == report.routes.map(\.name))
        #expect(routes.map(\.contract) == report.routes.map(\.contract))
        #expect(routes.filter { $0.outcome == "fail" }.map(\.name) == ["backing"])
        #expect(routes.filter { $0.outcome == "pass" }.count == 18)

        let backing = try #require(routes.first { $0.name == "backing" })
        #expect(backing.failures.map(\.check) == ["contract"])
        #expect(backing.failures.first?.message == report.route("backing")?.failures.first?.message)
        #expect(backing.request?.method == "GET")
        #expect(backing.request?.url.hasSuffix("/v1/projects/42/backer/2001") == true)
    }
}

/// The JSON report as a CI tool reads it, as far as this test does: decoding fails on a member
/// of another type (a route without its `failures` list).
private struct Document: Decodable {
    struct Summary: Decodable, Equatable {
        var routes: Int
        var passed: Int
        var failed: Int
        var exitCode: Int
        var uncoveredContracts: [String]
    }

    struct Route: Decodable {
        struct Failure: Decodable {
            var check: String
            var message: String
        }

        struct Request: Decodable {
            var method: String
            var url: String
        }

        var name: String
        var contract: String
        var outcome: String
        var failures: [Failure]
        var request: Request?
    }

    var summary: Summary
    var routes: [Route]
}
