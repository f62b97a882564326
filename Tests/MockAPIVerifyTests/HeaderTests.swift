import ClientKit
import ExampleAPIChecks
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Headers a contract requires come from the client's configuration; without them the routes
/// that need them break their contracts.
@Suite struct HeaderTests {
    @Test func clientWithoutTokenBreaksTheRoutesThatNeedOne() async throws {
        let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let anonymous = ClientConfiguration(environment: .local(port: 0), appName: "mockapi-verify-tests", token: nil)

        let report = try await ContractRunner(set: contracts, checks: bundledChecks(configuration: anonymous)).run()

        #expect(report.failedRouteNames == ["update_backing", "current_user"])
        for name in report.failedRouteNames {
            let failures = try #require(report.route(name)).failures
            #expect(failures.map(\.check) == [.contract])
            #expect(
                failures.first?.lines.suffix(2) == [
                    "problem:  the request breaks the contract (1 violation):",
                    "  header.Authorization: required header is missing",
                ])
        }
    }
}
