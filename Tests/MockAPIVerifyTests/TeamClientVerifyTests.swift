import Foundation
import MockAPIServer
import MockAPITestSupport
import MockAPIVerify
import TeamApp
import Testing

/// A team's own client, built without ClientKit (Tests/TeamApp: a URLRequest router, its own
/// decoder, its own multipart encoder, its own session and interceptor), verified against the
/// bundled contracts it claims. Each planted bug must fail the run naming the route it breaks;
/// the clean client must pass.
@Suite struct TeamClientVerifyTests {
    private func verify(_ client: TeamClient, set: TemporaryContractSet? = nil) async throws -> VerifyReport {
        let contracts = try ContractSet.load(contracts: set?.contracts ?? BundledAPI.contracts, fixtures: set?.fixtures ?? BundledAPI.fixtures)
        let options = VerifyOptions(scope: .claimed, strictCoverage: true, transport: client.transport)
        return try await ContractRunner(set: contracts, checks: client.checks, options: options).run()
    }

    @Test func cleanClientPassesEveryRouteItClaims() async throws {
        let report = try await verify(TeamClient())

        #expect(report.routes.map(\.name) == ["current_user", "backing", "update_backing", "activities", "upload_draft_image"])
        #expect(report.failedRouteNames == [])
        #expect(report.uncoveredContracts == [], "scope .claimed: the other 14 bundled contracts are not this client's")
        #expect(report.exitCode == 0)
        #expect(report.notes == [])
    }

    /// The README's test (AppContractTests.swift: one result per route) with a planted bug: only
    /// the routes the bug breaks fail, each on its own, its report naming the problem.
    @Test func perRouteTestsFailOnlyTheRoutesABugBreaks() async throws {
        let client = TeamClient(bugs: .noToken)
        var failed: [String: String] = [:]
        for check in client.checks {
            let options = VerifyOptions(scope: .claimed, strictCoverage: true, transport: client.transport)
            let report = try await ContractRunner(set: try appContracts(), checks: [check], options: options).run()
            if report.exitCode != 0 { failed[check.name] = TextReport.render(report) }
        }

        #expect(failed.keys.sorted() == ["current_user", "update_backing"])
        #expect(failed["update_backing"]?.contains("header.Authorization: required header is missing") == true)
        #expect(failed["update_backing"]?.hasPrefix("mockapi verify: 1 route against in-process server http://127.0.0.1:") == true)
    }

    @Test func requestIsSentExactlyAsTheClientBuiltIt() async throws {
        try await withMockServer(configure: { $0.journalSecrets = true }) { server in
            let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
            let client = TeamClient()
            let report = try await ContractRunner(set: contracts, checks: client.checks, options: VerifyOptions(transport: client.transport))
                .run(against: server.baseURL)
            #expect(report.failedRouteNames == [])
            let backing = try #require(server.journal().first { $0.contract == "backing" })
            // The router's headers and the interceptor's token; nothing the runner made up.
            #expect(backing.headers.value(for: "Authorization") == "token team-secret")
            #expect(backing.headers.value(for: "Accept") == "application/json")
            #expect(backing.headers.value(for: "Mockapi-Verify-Request") == nil)
            #expect(backing.headers.value(for: "Prefer") == nil)
            let named = try #require(server.journal().first { $0.response == "invalid" })
            #expect(named.headers.value(for: "Prefer") == "example=invalid")
        }
    }

    @Test func decoderWithoutSnakeCaseFailsTheRoutesThatDecodeSnakeKeys() async throws {
        let report = try await verify(TeamClient(bugs: .noSnakeCase))

        #expect(report.failedRouteNames == ["current_user", "backing", "update_backing", "activities"])
        let failure = try #require(report.route("current_user")?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.message.hasPrefix(#"response "default" does not decode into Me:"#))
        #expect(
            failure.message.hasSuffix(
                "fixtures/users/self.json: backedProjectsCount: missing key (the body has backed_projects_count: does the decoder convert from snake_case?)"))
    }

    @Test func wrongDateStrategyNamesTheStrategyTheValuesLookLike() async throws {
        let report = try await verify(TeamClient(bugs: .iso8601Dates))

        #expect(report.failedRouteNames == ["backing", "update_backing", "activities"])
        let failure = try #require(report.route("backing")?.failures.first)
        #expect(failure.check == .decoding)
        #expect(
            failure.message.hasSuffix(
                "fixtures/backings/backing.json: pledged_at: expected String, found Int "
                    + "(if this is a Date, the value looks like dateDecodingStrategy .secondsSince1970: is the decoder set to it?)"), "\(failure.message)")
    }

    @Test func droppedTokenFailsTheRoutesThatNeedOne() async throws {
        let report = try await verify(TeamClient(bugs: .noToken))

        #expect(report.failedRouteNames == ["current_user", "update_backing"])
        let failure = try #require(report.route("update_backing")?.failures.first)
        #expect(failure.check == .contract)
        #expect(
            failure.lines.suffix(2) == [
                "problem:  the request breaks the contract (1 violation):",
                "  header.Authorization: required header is missing",
            ])
    }

    @Test func partWithoutContentTypeFailsTheUpload() async throws {
        let report = try await verify(TeamClient(bugs: .noPartContentType))

        let failure = try onlyFailure(of: "upload_draft_image", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("part image: cover.jpg, no content type, 8 bytes, sha256 "))
        #expect(failure.lines.last?.hasPrefix("  part.image: ") == true)
    }

    @Test func renamedBodyKeyFailsTheUpdate() async throws {
        let report = try await verify(TeamClient(bugs: .renamedBodyKey))

        let failure = try onlyFailure(of: "update_backing", in: report)
        #expect(
            failure.lines.suffix(3) == [
                "problem:  the request breaks the contract (2 violations):",
                "  body.reward_id: required key is missing",
                "  body.rewardId: unexpected key (the contract names: amount, reward_id, location_id)",
            ])
    }

    @Test func fixtureWithoutAFieldTheModelRequiresFailsTheRoute() async throws {
        let set = try bundledCopy()
        try set.replace(#""status": "pledged","#, with: "", in: "fixtures/backings/backing.json")

        let report = try await verify(TeamClient(), set: set)

        #expect(report.failedRouteNames == ["backing", "update_backing"])
        let failure = try #require(report.route("backing")?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.message.hasSuffix("fixtures/backings/backing.json: status: missing key"))
    }

    @Test func misspelledPathSegmentFailsTheRoutesOnThatPath() async throws {
        let report = try await verify(TeamClient(bugs: .misspelledPath))

        #expect(report.failedRouteNames == ["backing", "update_backing"])
        let failure = try #require(report.route("backing")?.failures.first)
        #expect(failure.check == .contract)
        #expect(failure.message.contains(#"segment 4 is "backer", /v1/projects/{projectId:int}/backers/{backerId:int} expects "backers""#))
    }

    @Test func scopeAllCountsTheContractsTheClientLeavesOut() async throws {
        let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let client = TeamClient()
        let report = try await ContractRunner(
            set: contracts, checks: client.checks,
            options: VerifyOptions(scope: .all, strictCoverage: true, transport: client.transport)
        ).run()

        #expect(report.failedRouteNames == [])
        #expect(report.uncoveredContracts.count == 14)
        #expect(report.exitCode == 1)

        let named = try await ContractRunner(
            set: contracts, checks: client.checks,
            options: VerifyOptions(
                scope: .contracts(["backing", "project"]), strictCoverage: true,
                transport: client.transport)
        ).run()
        #expect(named.routes.map(\.name) == ["backing"], "checks outside the named scope are not run")
        #expect(named.uncoveredContracts == ["project"])
    }
}
