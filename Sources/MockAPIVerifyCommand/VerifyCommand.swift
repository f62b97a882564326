import ArgumentParser
import Foundation
import MockAPICore
import MockAPIVerify

/// `mockapi verify`, as a command any executable can run with its own checks: a team's CI gate
/// gets the same flags, reports and exit codes as `mockapi verify`.
///
/// ```swift
/// import MockAPIVerifyCommand
/// @main enum ContractGate { static func main() async { await VerifyCommand.main(checks: MyAPIChecks.all) } }
/// ```
public struct VerifyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Fire every route of the client at the server and check each against its contract.",
        discussion: """
            Each route's request is built by the client's own code and sent as built; the answer is \
            decoded with the client's own decoder. Exit status: 0 when every check holds, 1 when any \
            fails, 2 when the inputs are unusable.
            """
    )

    public enum ScopeOption: String, ExpressibleByArgument, CaseIterable, Sendable { case all, claimed }

    @OptionGroup public var contractOptions: ContractOptions
    @OptionGroup public var reportOptions: ReportOptions

    @Option(help: "Check a running `mockapi serve` at this URL instead of starting one in-process.")
    public var baseURL: String?

    @OptionGroup public var admin: AdminTokenOption

    @Option(help: "Contracts the client answers for: all, or only those its routes claim.")
    public var scope = ScopeOption.all

    @Option(name: .customLong("contract"), help: "Answer only for this contract (repeat for several); overrides --scope.")
    public var contracts: [String] = []

    // Drift is not part of --strict: a client that reads only the fields it needs is normal.
    @Flag(help: "The gate most teams want: the same as --strict-coverage (drift fails only with --strict-drift).")
    public var strict = false

    @Flag(help: "Fail on contracts in scope that no route exercises.")
    public var strictCoverage = false

    @Flag(help: "Fail on fixture keys the client's models never read.")
    public var strictDrift = false

    public init() {}

    /// Parses the process's arguments, verifies `checks` and exits with the run's code.
    public static func main(checks: [RouteCheck], transport: Transport = .shared) async {
        await main(checks: { _ in checks }, transport: transport)
    }

    /// The same, for checks made from the loaded contract set (generated clients, large APIs).
    public static func main(checks: @escaping @Sendable (ContractSet) -> [RouteCheck], transport: Transport = .shared) async {
        do {
            let command = try parse(Array(CommandLine.arguments.dropFirst()))
            try await command.run(checks: checks, transport: transport)
            exit(withError: nil)
        } catch {
            exit(withError: error)
        }
    }

    /// Runs with these arguments and returns the exit code instead of exiting: for tests.
    public static func exitCode(arguments: [String], checks: [RouteCheck], transport: Transport = .shared) async -> Int32 {
        do {
            let command = try parse(arguments)
            try await command.run(checks: { _ in checks }, transport: transport)
            return 0
        } catch {
            return exitCode(for: error).rawValue
        }
    }

    /// Without checks there is nothing to run: a gate passes its own (`main(checks:)`).
    public func run() async throws {
        throw reportOptions.unusable(command: "verify", "no checks to run (a gate calls VerifyCommand.main(checks:))")
    }

    /// Verifies the checks the client makes from the loaded set, over `transport`.
    /// - Parameter foreignSetHint: one line said first when none of the routes claims a contract
    ///   in `--contracts` (the `mockapi` binary explains that it runs its bundled example client).
    public func run(checks makeChecks: @Sendable (ContractSet) -> [RouteCheck], transport: Transport = .shared,
                    foreignSetHint: String? = nil) async throws {
        let set = try contractOptions.load { report in reportOptions.unusable(command: "verify", report, stderr: report) }
        let target = try baseURL.map { try serverURL($0, command: "verify", reportOptions: reportOptions) }
        let options = VerifyOptions(scope: contracts.isEmpty ? (scope == .all ? .all : .claimed) : .contracts(contracts),
                                    strictCoverage: strict || strictCoverage, strictDrift: strictDrift,
                                    transport: transport, adminToken: admin.adminToken)
        if case .contracts(let names) = options.scope {
            let unknown = names.filter { name in !set.contracts.contains { $0.name == name } }
            guard unknown.isEmpty else {
                throw reportOptions.unusable(command: "verify", "--contract names no contract in \(set.contractsDirectory)/: \(unknown.joined(separator: ", "))")
            }
        }
        let checks = makeChecks(set)
        if !checks.isEmpty, !checks.contains(where: { check in set.contracts.contains { $0.name == check.contract } }) {
            // Every route would fail as "no such contract": say once what is going on.
            Output.error("mockapi verify: " + (foreignSetHint ?? "none of the \(checks.count) routes claims a contract in \(set.contractsDirectory)/: are the checks and --contracts from the same API?"))
        }
        let runner = ContractRunner(set: set, checks: checks, options: options)
        let report: VerifyReport
        do {
            if let target { report = try await runner.run(against: target) } else { report = try await runner.run() }
        } catch let unusable as ContractRunner.Unusable {
            throw reportOptions.unusable(command: "verify", unusable.description)
        }
        try reportOptions.emit(command: "verify", text: { TextReport.render(report, color: reportOptions.color) },
                               json: { JSONReport.render(report) }, junit: { JUnitReport.render(report) })
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
