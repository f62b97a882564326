package import ArgumentParser
import Foundation
package import MockAPICore
import Synchronization

/// `--contracts` and `--fixtures`, shared by every command that reads a contract set.
package struct ContractOptions: ParsableArguments {
    // A variable stands in for its flag: the flag beats it, it beats the default.
    @Option(help: "Folder of contract files (*.json); $MOCKAPI_CONTRACTS when not given.")
    package var contracts = Self.environment("MOCKAPI_CONTRACTS") ?? Self.defaults.withLock(\.contracts)

    @Option(help: "Folder the contracts' fixture paths are relative to; $MOCKAPI_FIXTURES when not given.")
    package var fixtures = Self.environment("MOCKAPI_FIXTURES") ?? Self.defaults.withLock(\.fixtures)

    /// The folders used when neither flag nor variable names one: `contracts` and `fixtures` in
    /// the working directory, or what a team's gate set (``VerifyGate``).
    static let defaults = Mutex((contracts: "contracts", fixtures: "fixtures"))

    /// A set, non-empty variable.
    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    package init() {}

    /// The loaded set, or the full problem report on stderr and exit code 2.
    package func load() throws -> ContractSet {
        try load { report in
            Output.error(report)
            return ExitCode(2)
        }
    }

    /// The loaded set, or what `unusable` makes of the full problem report.
    package func load(unusable: (String) -> ExitCode) throws -> ContractSet {
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

/// Writing to stdout and stderr without buffering surprises.
package enum Output {
    package enum Stream: Sendable { case standardOutput, standardError }

    /// Where text goes: the process's streams, unless a test captures it for the task it runs
    /// (`Output.$write.withValue({ stream, text in … }) { … }`).
    @TaskLocal package static var write: @Sendable (Stream, String) -> Void = { stream, text in
        // `try?`: a stream that has gone (a closed terminal after SIGHUP) must not stop the
        // process before it has saved and cleaned up; `write(_:)` traps on the error.
        try? (stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError).write(contentsOf: Data(text.utf8))
    }

    package static func line(_ text: String) {
        write(.standardOutput, text + "\n")
    }

    /// What a message on stderr is, for `--log-format json`.
    package enum Level: String, Sendable { case info, warning, error }

    /// Set by `serve --log-format json`: every stderr message is then one JSON object per line,
    /// as the request lines are, so a log collector reads the whole stream. Process-wide: the
    /// watcher and signal threads say things too.
    package static var errorsAsJSON: Bool {
        get { jsonErrors.load(ordering: .relaxed) }
        set { jsonErrors.store(newValue, ordering: .relaxed) }
    }
    private static let jsonErrors = Atomic<Bool>(false)

    /// A message for stderr; with `errorsAsJSON`, its level is `warning` when it says so
    /// (`warning: …`) and `error` otherwise: use `log` for news that is no error.
    package static func error(_ text: String) {
        let unprefixed = text.drop { $0 != " " }.dropFirst()
        log(text.hasPrefix("warning: ") || unprefixed.hasPrefix("warning: ") ? .warning : .error, text)
    }

    /// A message for stderr at `level`: as written, or with `errorsAsJSON`
    /// `{"time":"2026-11-26T06:30:01.123Z","level":"info","message":"reloaded (19 routes)"}`
    /// (the `mockapi: ` and `warning: ` prefixes dropped: the object says both).
    package static func log(_ level: Level, _ text: String) {
        guard errorsAsJSON else { return write(.standardError, text + "\n") }
        write(.standardError, jsonLine(level, text) + "\n")
    }

    static func jsonLine(_ level: Level, _ text: String, at date: Date = Date()) -> String {
        var message = Substring(text)
        for prefix in ["mockapi serve: ", "mockapi: ", "warning: "] where message.hasPrefix(prefix) { message = message.dropFirst(prefix.count) }
        let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
        let object: JSONValue = ["time": .string(time), "level": .string(level.rawValue), "message": .string(String(message))]
        return object.serialized
    }
}
