import Foundation
import MockAPITestSupport
import Testing

/// `lint` and the links in the fixtures: an API link (`{{baseURL}}/…`) no contract serves is a
/// warning, and `--strict` makes every warning fail.
@Suite struct LintLinkTests {
    private func setWithDeadAPILink() throws -> TemporaryContractSet {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let page = set.fixtures.appendingPathComponent("activities/page1.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        try set.write(
            text.replacingOccurrences(of: "{{baseURL}}/v1/activities?cursor=2", with: "{{baseURL}}/v1/activity?cursor=2"),
            to: "fixtures/activities/page1.json")
        return set
    }

    @Test func deadAPILinkIsAWarningNamingFixturePathAndURL() throws {
        let set = try setWithDeadAPILink()

        let result = try CommandLineRunner.run(["lint", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                "warning: \(set.fixtures.path)/activities/page1.json: urls.api.more_activities: "
                    + "{{baseURL}}/v1/activity?cursor=2: no contract serves GET /v1/activity (nearest activities: "), "\(result.stderr)")
    }

    @Test func strictFailsOnAWarningAndPassesACleanSet() throws {
        let set = try setWithDeadAPILink()

        let strict = try CommandLineRunner.run(["lint", "--strict", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(strict.status == 1)
        #expect(strict.stderr.hasSuffix("mockapi lint: 1 warning under --strict\n"))

        let clean = try CommandLineRunner.run(["lint", "--strict"])
        #expect(clean.status == 0)
        #expect(clean.stderr == "")
    }

    /// One line per dead link however many places carry it (a real set printed 526 warnings for
    /// 34 links); the JSON report keeps every place.
    @Test func aLinkDeadInManyPlacesIsOneWarning() throws {
        let set = try setWithDeadAPILink()
        let page = set.fixtures.appendingPathComponent("activities/page1.json")
        let dead = #""{{baseURL}}/v1/activity?cursor=2""#
        let text = try String(contentsOf: page, encoding: .utf8)
            .replacingOccurrences(of: #""more_activities": \#(dead)"#, with: #""more_activities": \#(dead), "again": \#(dead), "and_again": \#(dead)"#)
        try set.write(text, to: "fixtures/activities/page1.json")

        let result = try CommandLineRunner.run(["lint", "--strict", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        let deadLines = result.stderr.split(separator: "\n").filter { $0.contains("/v1/activity?cursor=2") }
        #expect(deadLines.count == 1, "\(result.stderr)")
        #expect(deadLines.first?.hasPrefix("warning: {{baseURL}}/v1/activity?cursor=2: no contract serves GET /v1/activity (nearest ") == true)
        #expect(deadLines.first?.hasSuffix("(in 3 places; the first \(set.fixtures.path)/activities/page1.json: urls.api.more_activities)") == true)
        #expect(result.stderr.hasSuffix("mockapi lint: 1 warning under --strict\n"), "\(result.stderr)")

        let json = try CommandLineRunner.run(["lint", "--format", "json", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        let warnings = try LintDocument(json.stdout).warnings
        #expect(warnings.filter { $0.kind == "dead-link" }.count == 3)
    }
}
