public import ArgumentParser
import Foundation
package import MockAPICommandKit
public import MockAPICore
public import MockAPIVerify
import Synchronization

/// `mockapi verify`, as a command any executable can run with its own checks: a team's CI gate
/// gets the same flags, reports and exit codes as `mockapi verify`.
///
/// ```swift
/// import MockAPIVerifyCommand
/// @main enum ContractGate {
///     static func main() async {
///         await VerifyCommand.main(gate: VerifyGate(name: "contract-gate", packageFile: #filePath), checks: MyAPIChecks.all)
///     }
/// }
/// ```
public struct VerifyCommand: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: gate.withLock(\.commandName),
            abstract: "Fire every route of the client at the server and check each against its contract.",
            usage: usage,
            discussion: """
                Each route's request is built by the client's own code and sent as built; the answer is \
                decoded with the client's own decoder. Exit status: 0 when every check holds, 1 when any \
                fails, 2 when the inputs are unusable.
                """
        )
    }

    /// Written out: past 12 options ArgumentParser would shorten it to `verify <options>`. Keep
    /// it to the options below, in their order (the pinned help screens hold it to them).
    private static var usage: String {
        gate.withLock(\.displayName)
            + " [--contracts <contracts>] [--fixtures <fixtures>] [--format <format>] [--junit <junit>] [--base-url <base-url>]"
            + " [--admin-token <admin-token>] [--scope <scope>] [--contract <contract> ...] [--strict] [--strict-coverage]"
            + " [--strict-drift] [--variants] [--strict-variants]"
    }

    /// Who runs: `mockapi verify`, or a team's gate (its name, its contract folders).
    private static let gate = Mutex(VerifyGate.mockapi)

    package enum ScopeOption: String, ExpressibleByArgument, CaseIterable, Sendable { case all, claimed }

    @OptionGroup package var contractOptions: ContractOptions
    @OptionGroup package var reportOptions: ReportOptions

    @Option(help: "Check a running `mockapi serve` at this URL instead of starting one in-process.")
    package var baseURL: String?

    @OptionGroup package var admin: AdminTokenOption

    @Option(help: "Contracts the client answers for: all, or only those its routes claim.")
    package var scope = ScopeOption.all

    @Option(name: .customLong("contract"), help: "Answer only for this contract (repeat for several); overrides --scope.")
    package var contracts: [String] = []

    // Drift is not part of --strict: a client that reads only the fields it needs is normal.
    @Flag(help: "The gate most teams want: the same as --strict-coverage (drift fails only with --strict-drift).")
    package var strict = false

    @Flag(help: "Fail on contracts in scope that no route exercises.")
    package var strictCoverage = false

    @Flag(help: "Fail on fixture keys the client's models never read.")
    package var strictDrift = false

    @Flag(help: "Also decode the rare answers each response's schema allows (optional key absent, null, each enum value, ...); report those the client cannot decode.")
    package var variants = false

    @Flag(help: "Fail on rare answers the client cannot decode (implies --variants).")
    package var strictVariants = false

    public init() {}

    /// Names the command and its default contract folders for every later run (a team's gate):
    /// the name is needed before the arguments are parsed, for `--help` and usage errors.
    public static func use(gate: VerifyGate) {
        Self.gate.withLock { $0 = gate }
        ContractOptions.defaults.withLock { $0 = (gate.contracts, gate.fixtures) }
    }

    /// Parses the process's arguments, verifies `checks` and exits with the run's code.
    /// - Parameter gate: the gate's name and contract folders; `mockapi verify`'s when not given.
    /// - Parameter deepLinks: the client's deep-link matcher, for the fixtures' web links.
    public static func main(
        gate: VerifyGate = .mockapi, checks: [RouteCheck], transport: Transport = .shared,
        deepLinks: DeepLinkCheck? = nil
    ) async {
        await main(gate: gate, checks: { _ in checks }, transport: transport, deepLinks: deepLinks)
    }

    /// The same, for checks made from the loaded contract set (generated clients, large APIs).
    public static func main(
        gate: VerifyGate = .mockapi, checks: @escaping @Sendable (ContractSet) -> [RouteCheck],
        transport: Transport = .shared, deepLinks: DeepLinkCheck? = nil
    ) async {
        use(gate: gate)
        do {
            let command = try parse(Array(CommandLine.arguments.dropFirst()))
            try await command.run(checks: checks, transport: transport, deepLinks: deepLinks, decodingChild: .thisExecutable())
            exit(withError: nil)
        } catch {
            exit(withError: CommandFailure.translated(error))
        }
    }

    /// Runs with these arguments and returns the exit code instead of exiting: for tests.
    public static func exitCode(
        gate: VerifyGate = .mockapi, arguments: [String], checks: [RouteCheck],
        transport: Transport = .shared, deepLinks: DeepLinkCheck? = nil
    ) async -> Int32 {
        use(gate: gate)
        do {
            let command = try parse(arguments)
            try await command.run(checks: { _ in checks }, transport: transport, deepLinks: deepLinks)
            return 0
        } catch {
            return exitCode(for: CommandFailure.translated(error)).rawValue
        }
    }

    /// Without checks there is nothing to run: a gate passes its own (`main(checks:)`).
    public func run() async throws {
        // Translated here: ArgumentParser's own `main()` knows no `CommandFailure`.
        throw CommandFailure.translated(reportOptions.unusable(program: Self.gate.withLock(\.displayName), "no checks to run (a gate calls VerifyCommand.main(checks:))"))
    }

    /// Verifies the checks the client makes from the loaded set, over `transport`.
    /// - Parameter foreignSetHint: one line said first when none of the routes claims a contract
    ///   in `--contracts` (the `mockapi` binary explains that it runs its bundled example client).
    public func run(
        checks makeChecks: @Sendable (ContractSet) -> [RouteCheck], transport: Transport = .shared,
        deepLinks: DeepLinkCheck? = nil, foreignSetHint: String? = nil
    ) async throws {
        try await run(checks: makeChecks, transport: transport, deepLinks: deepLinks, foreignSetHint: foreignSetHint, decodingChild: nil)
    }

    /// The same, with `--variants` decoded in a child process started as `decodingChild` says: this
    /// executable again, which (`MOCKAPI_DECODING_CHILD` set) serves decode requests instead.
    package func run(
        checks makeChecks: @Sendable (ContractSet) -> [RouteCheck], transport: Transport = .shared,
        deepLinks: DeepLinkCheck? = nil, foreignSetHint: String? = nil, decodingChild: DecodingChild.Launch?
    ) async throws {
        let gate = Self.gate.withLock { $0 }
        let name = gate.displayName
        let set = try contractOptions.load { report in reportOptions.unusable(program: name, report, stderr: report) }
        let target = try baseURL.map { try reportOptions.serverURL($0, program: name) }
        // `all` is every contract the client answers for: the gate's own list when it names one.
        let all = gate.answersFor.map(VerifyOptions.Scope.contracts) ?? .all
        let options = VerifyOptions(
            scope: contracts.isEmpty ? (scope == .all ? all : .claimed) : .contracts(contracts),
            strictCoverage: strict || strictCoverage, strictDrift: strictDrift,
            transport: transport, adminToken: admin.adminToken, deepLinks: deepLinks, variants: variants, strictVariants: strictVariants)
        if case .contracts(let names) = options.scope {
            let unknown = names.filter { name in !set.contracts.contains { $0.name == name } }
            guard unknown.isEmpty else {
                let naming = contracts.isEmpty ? "the gate's answersFor" : "--contract"
                throw reportOptions.unusable(program: name, "\(naming) names no contract in \(set.contractsDirectory)/: \(unknown.joined(separator: ", "))")
            }
        }
        let checks = makeChecks(set)
        if DecodingChild.isThisProcess { DecodingChild.serve(checks) }
        if !checks.isEmpty, !checks.contains(where: { check in set.contracts.contains { $0.name == check.contract } }) {
            // Every route would fail as "no such contract": say once what is going on.
            Output.error("\(name): " + (foreignSetHint ?? "none of the \(checks.count) routes claims a contract in \(set.contractsDirectory)/: are the checks and --contracts from the same API?"))
        }
        var isolated = options
        if options.variants, let decodingChild { isolated.decodingChild = DecodingChild(decodingChild) }
        let runner = ContractRunner(set: set, checks: checks, options: isolated)
        let report: VerifyReport
        do {
            if let target { report = try await runner.run(against: target) } else { report = try await runner.run() }
        } catch let unusable as ContractRunner.Unusable {
            throw reportOptions.unusable(program: name, unusable.description)
        }
        try reportOptions.emit(
            program: name, text: { TextReport.render(report, color: reportOptions.color, name: name) },
            json: { JSONReport.render(report) }, junit: { JUnitReport.render(report, name: name) })
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
