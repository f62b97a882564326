import ExampleAPIChecks
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Fixture keys the client's model never reads: a warning by default, a `drift` failure under strict.
@Suite struct DriftTests {
    /// The bundle with one key `User` does not read added to the public profile fixture.
    private func bundleWithUnreadKey() throws -> TemporaryContractSet {
        let set = try bundledCopy()
        try set.replace(
            #""backed_projects_count": 52,"#, with: #""backed_projects_count": 52, "nickname": "dana","#,
            in: "fixtures/users/user.json")
        return set
    }

    @Test func unreadFixtureKeyIsAWarningThatPasses() async throws {
        let set = try bundleWithUnreadKey()

        let report = try await verify(set)

        #expect(report.failedRouteNames == [])
        #expect(report.exitCode == 0)
        let warnings = try #require(report.route("user")).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasSuffix("fixtures/users/user.json: keys User never reads: nickname") == true)
        #expect(report.routes.filter { !$0.warnings.isEmpty }.map(\.name) == ["user"])
    }

    @Test func unreadFixtureKeyFailsUnderStrict() async throws {
        let set = try bundleWithUnreadKey()

        let report = try await verify(set, strict: true)

        let failure = try onlyFailure(of: "user", in: report)
        #expect(failure.check == .drift)
        #expect(failure.message.hasSuffix("fixtures/users/user.json: keys User never reads: nickname"))
        #expect(report.exitCode == 1)
    }

    @Test func unreadKeyInArrayElementsIsFoldedToOnePath() async throws {
        let set = try bundledCopy()
        try set.replace(
            #"{"id": 1, "name": "Art","#, with: #"{"id": 1, "color": "red", "name": "Art","#,
            in: "fixtures/categories/categories.json")

        let report = try await verify(set)

        #expect(report.failedRouteNames == [])
        let warnings = try #require(report.route("categories")).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasSuffix("fixtures/categories/categories.json: keys CategoryEnvelope never reads: categories[].color") == true)
    }
}
