import ClientKit
import ExampleAPIChecks
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Coverage both ways: a contract no client route claims is reported (and fails under strict),
/// a client route that claims a contract the set lacks fails.
@Suite struct CoverageTests {
    private static let orphan = #"""
        {"name": "orphan", "request": {"method": "GET", "path": "/v1/orphans"}, "responses": {"default": {"status": 200, "body": {}}}}
        """#

    @Test func contractNoRouteUsesIsUncoveredButPasses() async throws {
        let set = try bundledCopy()
        try set.write(Self.orphan, to: "contracts/orphans/orphan.json")

        let report = try await verify(set)

        #expect(report.uncoveredContracts == ["orphan"])
        #expect(report.failedRouteNames == [])
        #expect(report.exitCode == 0)
    }

    @Test func contractNoRouteUsesFailsUnderStrict() async throws {
        let set = try bundledCopy()
        try set.write(Self.orphan, to: "contracts/orphans/orphan.json")

        let report = try await verify(set, strict: true)

        #expect(report.uncoveredContracts == ["orphan"])
        #expect(report.failedRouteNames == [])
        #expect(report.exitCode == 1)
    }

    @Test func routeClaimingAMissingContractFailsCoverage() async throws {
        let stray = RouteCheck(
            name: "pet_food", contract: "no_such_contract", endpoint: Endpoint(.get, "/v1/pet_food"),
            configuration: BundledClientChecks.configuration,
            responses: ["default": .clientKit(EmptyResponse.self)])

        let report = try await verify(checks: bundledChecks() + [stray])

        let failure = try onlyFailure(of: "pet_food", in: report)
        #expect(failure.check == .coverage)
        #expect(failure.message.hasPrefix(#"route pet_food claims contract "no_such_contract", but "#))
        #expect(failure.message.hasSuffix("contracts/ has no contract with that name"))
        #expect(report.uncoveredContracts == [])
        #expect(report.exitCode == 1)
    }
}
