/// The allowed range of one kind of number mockapi takes from outside: a request header, a flag,
/// an environment variable or a contract key. Every such number is read and checked here, so none
/// reaches a conversion that traps (`Int(Double.infinity)`, `UInt32(5_000_000_000)`), and every
/// refusal names the range it missed.
package struct NumberRange: Sendable, Equatable, CustomStringConvertible {
    package let lowest: Double
    package let highest: Double
    /// "ms", "seconds", "bytes": said after the range in messages.
    package let unit: String

    package init(_ lowest: Double, _ highest: Double, _ unit: String) {
        self.lowest = lowest
        self.highest = highest
        self.unit = unit
    }

    /// "0 to 60000 ms".
    package var description: String {
        "\(Self.format(lowest)) to \(Self.format(highest))" + (unit.isEmpty ? "" : " \(unit)")
    }

    /// False for NaN and infinities, whatever the bounds.
    package func contains(_ value: Double) -> Bool {
        value.isFinite && value >= lowest && value <= highest
    }

    /// The same kind of number with a lower ceiling (`--max-delay` narrows the delay range).
    package func capped(at ceiling: Double) -> NumberRange {
        NumberRange(lowest, min(highest, max(lowest, ceiling)), unit)
    }

    /// `text` as a number in range; nil for text that is no finite decimal number (`inf`, `nan`,
    /// `0x10` and `1e300` among them) or one out of range.
    package func read(_ text: some StringProtocol) -> Double? {
        // Double("inf") and Double("nan") succeed: only plain decimals are numbers here.
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Double(String(text)), contains(value)
        else { return nil }
        return value
    }

    /// "delay=inf is out of range: 0 to 60000 ms".
    package func refusal(_ what: String) -> String {
        "\(what) is out of range: \(description)"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension NumberRange {
    /// A delay, from `Prefer: delay=`, `--delay` or a response's `delay`: at most an hour, however
    /// far `--max-delay` is raised (`ServerConfiguration.maxDelayMilliseconds` is the ceiling in force).
    package static let delayMilliseconds = NumberRange(0, 3_600_000, "ms")
    /// The spread of a log-normal delay.
    package static let delaySigma = NumberRange(0, 10, "")
    /// `--timeout`: how long an idle connection (or a hanging fault) is kept.
    package static let timeoutSeconds = NumberRange(1, 86_400, "seconds")
    /// `--header-timeout` (0: no deadline).
    package static let headerTimeoutSeconds = NumberRange(0, 86_400, "seconds")
    /// `--max-body-bytes`, `--max-json-bytes`, `--max-buffered-bytes`, `--journal-bytes`.
    package static let bytes = NumberRange(1, 1_099_511_627_776, "bytes")
    /// `--min-body-rate` (0: no minimum).
    package static let bodyRate = NumberRange(0, 1_073_741_824, "bytes per second")
    /// `--max-connections`, `--max-connections-per-ip`.
    package static let connections = NumberRange(1, 1_000_000, "connections")
    /// `--threads`.
    package static let threads = NumberRange(1, 1_024, "threads")
    /// `--max-sessions`.
    package static let sessions = NumberRange(1, 100_000, "sessions")
    /// `--session-idle-timeout`: a day at most, so a forgotten session cannot outlive a workday by much.
    package static let sessionIdleSeconds = NumberRange(1, 86_400, "seconds")
    /// `--journal-size`.
    package static let journalEntries = NumberRange(1, 100_000_000, "entries")
}
