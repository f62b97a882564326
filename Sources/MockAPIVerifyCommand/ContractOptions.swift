import ArgumentParser
import Foundation
import MockAPICore

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
public struct ContractOptions: ParsableArguments {
    // A variable stands in for its flag: the flag beats it, it beats the default.
    @Option(help: "Folder of contract files (*.json); $MOCKAPI_CONTRACTS when not given.")
    public var contracts = Self.environment("MOCKAPI_CONTRACTS") ?? "contracts"

    @Option(help: "Folder the contracts' fixture paths are relative to; $MOCKAPI_FIXTURES when not given.")
    public var fixtures = Self.environment("MOCKAPI_FIXTURES") ?? "fixtures"

    /// A set, non-empty variable.
    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    public init() {}

    /// The loaded set, or the full problem report on stderr and exit code 2.
    public func load() throws -> ContractSet {
        try load { report in
            Output.error(report)
            return ExitCode(2)
        }
    }

    /// The loaded set, or what `unusable` makes of the full problem report.
    public func load(unusable: (String) -> ExitCode) throws -> ContractSet {
        do {
            return try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
        } catch {
            throw unusable(error.description)
        }
    }
}

/// Writing to stdout and stderr without buffering surprises.
public enum Output {
    public enum Stream: Sendable { case standardOutput, standardError }

    /// Where text goes: the process's streams, unless a test captures it for the task it runs
    /// (`Output.$write.withValue({ stream, text in … }) { … }`).
    @TaskLocal public static var write: @Sendable (Stream, String) -> Void = { stream, text in
        (stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
    }

    public static func line(_ text: String) {
        write(.standardOutput, text + "\n")
    }

    public static func error(_ text: String) {
        write(.standardError, text + "\n")
    }
}
