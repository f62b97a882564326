import Foundation
import MockAPICore
import Synchronization

/// Writing to stdout and stderr without buffering surprises.
package enum Output {
    package enum Stream: Sendable { case standardOutput, standardError }

    /// Where text goes: the process's streams, unless a test captures it for the task it runs
    /// (`Output.$write.withValue({ stream, text in … }) { … }`).
    @TaskLocal package static var write: @Sendable (Stream, String) -> Void = { stream, text in
        // A stream that has gone (a closed terminal after SIGHUP) must not stop the process
        // before it has saved and cleaned up: a failed write is dropped. Written from the
        // string's own bytes: `Data(text.utf8)` cost a dynamic cast's conformance scan, about
        // 0.25 M instructions, on the first message of every run.
        var text = text
        text.withUTF8 { writeAll(stream == .standardOutput ? 1 : 2, UnsafeRawBufferPointer($0)) }
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
