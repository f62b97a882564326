// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import Foundation
import MockAPIVerify
import TeamApp
import Testing

/// contracts/ and fixtures/ at the root of the package that holds this file (Tests/<target>/<file>).
func appContracts() throws -> ContractSet {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try ContractSet.load(contracts: root.appendingPathComponent("contracts"), fixtures: root.appendingPathComponent("fixtures"))
}

@Test(arguments: AppContractChecks.all())
func route(_ check: RouteCheck) async throws {
    let options = VerifyOptions(scope: .claimed, strictCoverage: true, transport: TeamClient().transport)
    let report = try await ContractRunner(set: try appContracts(), checks: [check], options: options).run()
    #expect(report.exitCode == 0, "\(TextReport.render(report))")
}

/// A route the app never calls: each route's own run (scope .claimed) cannot see it.
@Test func everyContractHasARoute() throws {
    let options = VerifyOptions(scope: .contracts(AppContractChecks.contracts))
    let runner = ContractRunner(set: try appContracts(), checks: AppContractChecks.all(), options: options)
    #expect(runner.uncoveredContracts == [], "the app has no route for these contracts")
}
