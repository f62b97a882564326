import ArgumentParser
import Foundation
package import MockAPICore
package import Synchronization

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
package struct ContractOptions: ParsableArguments {
    // A variable stands in for its flag: the flag beats it, it beats the default.
    @Option(help: "Folder of contract files (*.json); $MOCKAPI_CONTRACTS when not given.")
    package var contracts = Self.defaultContracts

    @Option(help: "Folder the contracts' fixture paths are relative to; $MOCKAPI_FIXTURES when not given.")
    package var fixtures = Self.defaultFixtures

    /// `--contracts` when not given: the variable, else the default folder.
    package static var defaultContracts: String { EnvironmentVariable.nonEmpty("MOCKAPI_CONTRACTS") ?? defaults.withLock(\.contracts) }
    /// `--fixtures` when not given: the variable, else the default folder.
    package static var defaultFixtures: String { EnvironmentVariable.nonEmpty("MOCKAPI_FIXTURES") ?? defaults.withLock(\.fixtures) }

    /// The folders used when neither flag nor variable names one: `contracts` and `fixtures` in
    /// the working directory, or what a team's gate set (``VerifyGate``).
    package static let defaults = Mutex((contracts: "contracts", fixtures: "fixtures"))

    package init() {}

    /// The loaded set, or a failure saying the full problem report on stderr (exit code 2).
    package func load() throws -> ContractSet {
        try load { report in CommandFailure.unusableAsSaid(stderr: report) }
    }

    /// The loaded set, or the failure `unusable` makes of the full problem report.
    package func load(unusable: (String) -> CommandFailure) throws -> ContractSet {
        do {
            return try loadSet()
        } catch {
            throw unusable(error.description)
        }
    }

    /// The loaded set, or every problem as a value (`lint --format json` lists them).
    package func loadSet() throws(ContractSetError) -> ContractSet {
        try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
    }
}
