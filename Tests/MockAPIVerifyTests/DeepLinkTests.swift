import ExampleAPIChecks
import Foundation
import MockAPITestSupport
import Testing

/// Every link in the fixtures is live: `{{baseURL}}/…` links must be a GET a contract serves,
/// and web links on the app's host must be ones the app's own matcher (``Navigation``) opens.
@Suite struct DeepLinkTests {
    private func run(_ set: TemporaryContractSet) async throws -> VerifyReport {
        let contracts = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
        let options = VerifyOptions(deepLinks: BundledClientChecks.deepLinks)
        return try await ContractRunner(set: contracts, checks: BundledClientChecks.all, options: options).run()
    }

    @Test func bundledFixturesHaveNoDeadLink() async throws {
        let report = try await run(try bundledCopy())

        #expect(report.deadLinks == [])
        #expect(report.exitCode == 0)
    }

    @Test func plantedDeadWebLinkFailsNamingFixturePathAndURL() async throws {
        let set = try bundledCopy()
        try set.replace(
            #""project": "https://www.kickstarter.com/projects/lantern-card-game"}}"#,
            with: #""project": "https://www.kickstarter.com/projekts/lantern-card-game"}}"#, in: "fixtures/projects/project.json")

        let report = try await run(set)

        #expect(report.routes.allSatisfy { $0.outcome == .pass }, "the models still decode: only the link is dead")
        #expect(
            report.deadLinks.map(\.description) == [
                "\(set.fixtures.path)/projects/project.json: urls.web.project: https://www.kickstarter.com/projekts/lantern-card-game: the app's deep-link matcher does not accept it"
            ])
        #expect(report.exitCode == 1)
        let text = TextReport.render(report)
        #expect(text.contains("FAIL  1 dead link in the responses:"))
        #expect(text.hasSuffix("; 1 dead link (\(String(format: "%.2f", report.seconds)) s)"))
        #expect(JUnitReport.render(report).contains(#"<testcase classname="mockapi.verify.links" name="\#(set.fixtures.path)/projects/project.json: urls.web.project">"#))
    }

    @Test func plantedDeadAPILinkNamesTheNearestContract() async throws {
        let set = try bundledCopy()
        try set.replace("{{baseURL}}/v1/activities?cursor=2", with: "{{baseURL}}/v1/activity?cursor=2", in: "fixtures/activities/page1.json")

        let report = try await run(set)

        let link = try #require(report.deadLinks.first)
        #expect(report.deadLinks.count == 1)
        #expect(link.jsonPath == "urls.api.more_activities")
        #expect(link.url == "{{baseURL}}/v1/activity?cursor=2")
        #expect(link.reason.hasPrefix("no contract serves GET /v1/activity (nearest activities: "), "\(link.reason)")
    }

    @Test func withoutAMatcherOnlyAPILinksAreChecked() async throws {
        let set = try bundledCopy()
        try set.replace(
            #""project": "https://www.kickstarter.com/projects/lantern-card-game"}}"#,
            with: #""project": "https://www.kickstarter.com/projekts/lantern-card-game"}}"#, in: "fixtures/projects/project.json")
        let contracts = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)

        let report = try await ContractRunner(set: contracts, checks: BundledClientChecks.all).run()

        #expect(report.deadLinks == [])
    }

    @Test func apiLinkThatEchoesARequestValueIsCheckedWithASampleValue() throws {
        let set = try TemporaryContractSet(
            contracts: [
                "project.json": #"""
                {"name": "project", "request": {"method": "GET", "path": "/v1/projects/{id:int}"},
                 "responses": {"default": {"status": 200, "fixture": "project.json"}}}
                """#
            ],
            fixtures: [
                "project.json": #"""
                {"urls": {"api": {"self": "{{baseURL}}/v1/projects/{{path.id}}", "backers": "{{baseURL}}/v1/projects/{{path.id}}/backers"}}}
                """#
            ])
        let contracts = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)

        let dead = DeadLink.find(in: contracts)

        #expect(dead.map(\.jsonPath) == ["urls.api.backers"])
        #expect(dead.first?.reason.hasPrefix("no contract serves GET /v1/projects/1/backers") == true)
    }
}
