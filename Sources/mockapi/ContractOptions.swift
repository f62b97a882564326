import ArgumentParser
import Foundation
import MockAPICore

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
struct ContractOptions: ParsableArguments {
    @Option(help: "Folder of contract files (*.json).")
    var contracts = "contracts"

    @Option(help: "Folder the contracts' fixture paths are relative to.")
    var fixtures = "fixtures"

    /// The loaded set, or the full problem report on stderr and exit code 2.
    func load() throws -> ContractSet {
        do {
            return try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
    }
}

/// Writing to stdout and stderr without buffering surprises.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
