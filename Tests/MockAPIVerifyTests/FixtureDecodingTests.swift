import ExampleAPIChecks
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// A fixture the client's model cannot decode fails the `decoding` check of every route that
/// serves it, naming the fixture file, the JSON path as the body spells it, and what was wrong.
@Suite struct FixtureDecodingTests {
    @Test func wrongTypeNamesFixtureFileAndJSONPath() async throws {
        let set = try bundledCopy()
        try set.replace(#""backers_count": 98"#, with: #""backers_count": "98""#, in: "fixtures/backings/backing.json")

        let report = try await verify(set)

        // Both routes answer with this fixture.
        #expect(report.failedRouteNames == ["backing", "update_backing"])
        for name in ["backing", "update_backing"] {
            let failures = try #require(report.route(name)).failures
            #expect(failures.map(\.check) == [.decoding])
            let (file, problem) = try #require(failures.first.flatMap(fixtureLine))
            #expect(failures.first?.lines.first == #"response "default" does not decode into Backing:"#)
            #expect(file.hasSuffix("fixtures/backings/backing.json"))
            #expect(problem == "reward.backers_count: expected Int, found String")
        }
    }

    @Test func missingRequiredFieldNamesTheKeyAndArrayIndex() async throws {
        let set = try bundledCopy()
        try set.replace(#""slug": "games/video-games","#, with: "", in: "fixtures/categories/categories.json")

        let report = try await verify(set)

        let failure = try onlyFailure(of: "categories", in: report)
        #expect(failure.check == .decoding)
        #expect(failure.lines.first == #"response "default" does not decode into CategoryEnvelope:"#)
        let (file, problem) = try #require(fixtureLine(failure))
        #expect(file.hasSuffix("fixtures/categories/categories.json"))
        #expect(problem == "categories[6].slug: missing key")
    }

    @Test func brokenErrorFixtureFailsTheNamedResponse() async throws {
        let set = try bundledCopy()
        try set.replace(#""http_code": 401"#, with: #""http_code": "401""#, in: "fixtures/errors/unauthorized.json")

        let report = try await verify(set)

        // `unauthorized` is served by the routes that need a token, and by a failed Facebook login.
        #expect(report.failedRouteNames == ["update_backing", "current_user", "facebook_login"])
        let failure = try #require(report.route("current_user")?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.lines.first == #"response "unauthorized" does not decode into ErrorEnvelope:"#)
        let (file, problem) = try #require(fixtureLine(failure))
        #expect(file.hasSuffix("fixtures/errors/unauthorized.json"))
        #expect(problem == "http_code: expected Int, found String")
    }

    /// `  FILE: PATH: MESSAGE`, the second line of a decoding failure, split after the file.
    private func fixtureLine(_ failure: RouteResult.Failure) -> (file: String, problem: String)? {
        guard failure.lines.count == 2, let separator = failure.lines[1].range(of: ".json: ") else { return nil }
        let line = failure.lines[1]
        return (String(line[..<separator.lowerBound]).trimmingCharacters(in: .whitespaces) + ".json", String(line[separator.upperBound...]))
    }
}
