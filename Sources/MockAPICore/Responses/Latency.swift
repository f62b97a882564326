import SystemLibc

/// How long an answer waits before it is sent, in milliseconds: fixed, uniform in a range, or
/// log-normal (a median and a spread, as real network latency is: mostly near the median, with
/// a long slow tail).
package enum Latency: Sendable, Equatable {
    case fixed(Double)
    case uniform(min: Double, max: Double)
    case logNormal(median: Double, sigma: Double)

    /// The longest wait served unless `--max-delay` says otherwise: a minute.
    package static let defaultCeilingMilliseconds: Double = 60_000

    /// One wait, in milliseconds, never above `ceiling` (a log-normal tail is unbounded: its
    /// draws are cut there) nor above an hour.
    package func sample(atMost ceiling: Double = NumberRange.delayMilliseconds.highest) -> Double {
        let drawn: Double
        switch self {
        case .fixed(let milliseconds):
            drawn = milliseconds
        case .uniform(let low, let high):
            drawn = Double.random(in: low...high)
        case .logNormal(let median, let sigma):
            // Box-Muller: a standard normal from two uniforms.
            let u1 = Double.random(in: Double.ulpOfOne..<1), u2 = Double.random(in: 0..<1)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            drawn = median * exp(sigma * normal)
        }
        let limit = min(ceiling, NumberRange.delayMilliseconds.highest)
        return drawn.isFinite ? min(max(drawn, 0), limit) : limit
    }

    /// The largest wait this latency asks for (a log-normal's median: its tail is cut at sampling).
    package var largestMilliseconds: Double {
        switch self {
        case .fixed(let milliseconds): milliseconds
        case .uniform(_, let high): high
        case .logNormal(let median, _): median
        }
    }

    /// `800`, `200-800` or `lognormal:300:0.5` (the `--delay` flag and `Prefer: delay=`), every
    /// number within `range`; nil for anything else (`inf`, `1e300`, `0-1e300`, `lognormal:1:1000`).
    package init?(_ text: some StringProtocol, within range: NumberRange = .delayMilliseconds) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "lognormal" {
            guard let median = range.read(parts[1]), let sigma = NumberRange.delaySigma.read(parts[2]) else { return nil }
            self = .logNormal(median: median, sigma: sigma)
        } else if let dash = text.dropFirst().firstIndex(of: "-") {
            guard let low = range.read(text[..<dash]), let high = range.read(text[text.index(after: dash)...]), high >= low else { return nil }
            self = .uniform(min: low, max: high)
        } else if let milliseconds = range.read(text) {
            self = .fixed(milliseconds)
        } else {
            return nil
        }
    }

    /// What `init(_:within:)` accepts, for refusals.
    package static func expected(within range: NumberRange) -> String {
        "milliseconds from \(range) (800), a range (200-800) or lognormal:MEDIAN:SIGMA (sigma \(NumberRange.delaySigma))"
    }
}

/// A broken answer on purpose, to test how a client copes with the network failing.
package enum Fault: String, Sendable, CaseIterable {
    /// The connection is reset (TCP RST): URLSession -1005, curl exit 56.
    case reset
    /// The connection closes with no answer at all: URLSession -1005, curl exit 52.
    case empty
    /// Bytes that are not HTTP, then a close: URLSession -1017 (or -1005), curl exit 1 or 8.
    case garbage
    /// No answer until the client gives up (or `--timeout` passes): URLSession -1001, curl exit 28.
    case hang
    /// The whole answer, but at `trickleBytesPerSecond`: a client whose timeout is shorter than
    /// the transfer sees -1001 (curl with `-m`: exit 28); a patient one gets every byte.
    case trickle

    package static let trickleBytesPerSecond = 1_000
}
