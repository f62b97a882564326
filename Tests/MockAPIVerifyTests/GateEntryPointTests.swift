import Foundation
import MockAPITestSupport
import MockAPIVerify
import MockAPIVerifyCommand
import TeamApp
import Testing

/// A team's own gate executable is `VerifyCommand.main(checks:transport:)`: the same flags,
/// reports and exit codes as `mockapi verify`, with the team's checks.
@Suite(.serialized) struct GateEntryPointTests {
    private let arguments = ["--contracts", BundledAPI.contracts.path, "--fixtures", BundledAPI.fixtures.path, "--format", "json"]

    @Test func teamGatePassesWithItsOwnClientAndWritesJUnit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("build/reports/contracts.xml")
        let client = TeamClient()

        let code = await VerifyCommand.exitCode(
            arguments: arguments + ["--scope", "claimed", "--strict-coverage", "--junit", junit.path],
            checks: client.checks, transport: client.transport)

        #expect(code == 0)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="mockapi verify" tests="5" failures="0""#))
    }

    @Test func teamGateFailsOnAPlantedBugAndOnUncoveredContracts() async throws {
        let broken = TeamClient(bugs: .misspelledPath)
        #expect(await VerifyCommand.exitCode(arguments: arguments + ["--scope", "claimed"], checks: broken.checks, transport: broken.transport) == 1)

        let client = TeamClient()
        #expect(
            await VerifyCommand.exitCode(arguments: arguments, checks: client.checks, transport: client.transport) == 0,
            "scope all without strict coverage: uncovered contracts only warn")
        #expect(await VerifyCommand.exitCode(arguments: arguments + ["--strict-coverage"], checks: client.checks, transport: client.transport) == 1)
        // Pledge reads a few of backing.json's keys: drift warns, and fails under --strict-drift.
        #expect(await VerifyCommand.exitCode(arguments: arguments + ["--contract", "backing"], checks: client.checks, transport: client.transport) == 0)
        #expect(
            await VerifyCommand.exitCode(
                arguments: arguments + ["--strict-drift", "--contract", "backing"], checks: client.checks,
                transport: client.transport) == 1)
        #expect(await VerifyCommand.exitCode(arguments: arguments + ["--contract", "no_such"], checks: client.checks) == 2)
    }

    @Test func strictFailsOnUncoveredContractsButNotOnDriftAlone() async throws {
        let client = TeamClient()
        // Pledge drifts from backing.json (a warning): --strict, the README's gate, still passes it.
        #expect(
            await VerifyCommand.exitCode(
                arguments: arguments + ["--strict", "--contract", "backing"], checks: client.checks,
                transport: client.transport) == 0)
        #expect(
            await VerifyCommand.exitCode(
                arguments: arguments + ["--strict", "--strict-drift", "--contract", "backing"],
                checks: client.checks, transport: client.transport) == 1)
        #expect(
            await VerifyCommand.exitCode(arguments: arguments + ["--strict"], checks: client.checks, transport: client.transport) == 1,
            "scope all: the contracts the team client does not claim fail under --strict")
    }

    /// A client missing one route (issue 31): under `--scope claimed --strict` its contract is
    /// claimed by no route, so it is out of scope and the gate passes; a gate that names the
    /// contracts its app answers for fails it under plain `--strict`, and the runner names it.
    @Test func aRouteTheClientNeverCallsFailsAGateThatNamesItsContracts() async throws {
        let client = TeamClient()
        let answersFor = client.checks.map(\.contract)
        let missingOne = client.checks.filter { $0.contract != "update_backing" }
        let gate = VerifyGate(
            name: "contract-gate", contracts: BundledAPI.contracts.path, fixtures: BundledAPI.fixtures.path, answersFor: answersFor)
        let json = ["--format", "json"]

        #expect(await VerifyCommand.exitCode(gate: gate, arguments: json + ["--strict"], checks: client.checks, transport: client.transport) == 0)
        #expect(await VerifyCommand.exitCode(gate: gate, arguments: json + ["--strict"], checks: missingOne, transport: client.transport) == 1)
        #expect(
            await VerifyCommand.exitCode(gate: gate, arguments: json + ["--scope", "claimed", "--strict"], checks: missingOne, transport: client.transport)
                == 0, "--scope claimed cannot see a route the client never calls")
        let misspelt = VerifyGate(
            name: "contract-gate", contracts: BundledAPI.contracts.path, fixtures: BundledAPI.fixtures.path,
            answersFor: answersFor + ["update_backings"])
        #expect(await VerifyCommand.exitCode(gate: misspelt, arguments: json, checks: client.checks, transport: client.transport) == 2)

        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let options = VerifyOptions(scope: .contracts(answersFor), strictCoverage: true, transport: client.transport)
        let runner = ContractRunner(set: set, checks: missingOne, options: options)
        #expect(runner.uncoveredContracts == ["update_backing"])
        #expect(ContractRunner(set: set, checks: missingOne, options: VerifyOptions(scope: .claimed)).uncoveredContracts == [])
        let report = try await runner.run()
        #expect(report.exitCode == 1)
        #expect(report.uncoveredContracts == ["update_backing"])
        #expect(TextReport.render(report).contains("update_backing"), "\(TextReport.render(report))")
    }
}
