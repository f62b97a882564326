import ArgumentParser
import Foundation
import MockAPICore

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
public struct ContractOptions: ParsableArguments {
    @Option(help: "Folder of contract files (*.json).")
    public var contracts = "contracts"

    @Option(help: "Folder the contracts' fixture paths are relative to.")
    public var fixtures = "fixtures"

    public init() {}

    /// The loaded set, or the full problem report on stderr and exit code 2.
    public func load() throws -> ContractSet {
        do {
            return try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
    }
}

/// Writing to stdout and stderr without buffering surprises.
public enum Output {
    public static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
