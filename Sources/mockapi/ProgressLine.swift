import Foundation
import MockAPICommandKit
import MockAPIImport

/// One line on stderr that a long command rewrites in place while it works (`import openapi` of
/// Stripe or Kubernetes takes seconds). Only on a terminal: a pipe, a file or a CI log gets
/// nothing extra. Redrawn at most ten times a second, and cleared before anything else is said.
final class ProgressLine {
    private let enabled: Bool
    private var lastDrawn: Date?
    private static let interval = 0.1
    /// Wider lines would wrap, and `\r` would then rewrite only their last row.
    static let maxWidth = 79

    init(enabled: Bool = ProgressLine.stderrIsATerminal()) {
        self.enabled = enabled
    }

    /// A terminal that can take `\r` and an erase-line: not `TERM=dumb`.
    static func stderrIsATerminal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
    }

    /// Shows `text` in place of the line before; `now: true` for a new phase, which is never skipped.
    func show(_ text: String, now: Bool = false) {
        guard enabled else { return }
        let time = Date()
        if !now, let lastDrawn, time.timeIntervalSince(lastDrawn) < Self.interval { return }
        lastDrawn = time
        let fitted = text.count > Self.maxWidth ? String(text.prefix(Self.maxWidth - 1)) + "…" : text
        Output.write(.standardError, "\r\u{1B}[K" + fitted)
    }

    /// Erases the line, so what is said next starts at the left margin of an empty line.
    func clear() {
        guard enabled, lastDrawn != nil else { return }
        lastDrawn = nil
        Output.write(.standardError, "\r\u{1B}[K")
    }
}

extension ImportProgress {
    /// `mockapi import openapi: 312 of 1068 operations read, 27 warnings so far`.
    var line: String {
        let said: String
        switch phase {
        case .reading:
            said = "reading \(file)…"
        case .translating:
            let of = total >= operations ? " of \(total)" : ""
            said = "\(operations)\(of) operation\(operations == 1 && of.isEmpty ? "" : "s") read, \(warnings) warning\(warnings == 1 ? "" : "s") so far"
        case .writing:
            said = "writing \(operations) contract\(operations == 1 ? "" : "s")…"
        }
        return "mockapi import openapi: " + said
    }
}
