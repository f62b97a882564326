/// A request's `Prefer` header (RFC 7240), read once: which response it asks for (`example=NAME`,
/// `code=STATUS`, Prism's convention) and how the answer is timed (`delay=800`, `200-800` or
/// `lognormal:300:0.5`; `fault=reset`).
package struct Prefer: Sendable, Equatable {
    /// Which named response the request asks for.
    package enum Selection: Sendable, Equatable {
        case example(String)
        case code(Int)
        /// `code=` with something that is not a number: refused, not ignored, so a typo shows.
        case invalidCode(String)
    }

    /// The first `example=` or `code=`; later ones are ignored.
    package var selection: Selection?
    /// The last `delay=` and `fault=` before any unusable one.
    package var delay: Latency?
    package var fault: Fault?
    /// The first `delay=` or `fault=` it cannot use (or a delay above the ceiling): refused like an
    /// unknown example, once the response is chosen.
    package var timingViolation: Violation?

    /// `delayCeiling`: the longest delay a request may ask for, in milliseconds (`--max-delay`).
    package init(_ header: String?, delayCeiling: Double = Latency.defaultCeilingMilliseconds) {
        guard let header else { return }
        for piece in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard pair.count == 2 else { continue }
            // `example=` with nothing after it names no response; `example= ` names the empty one.
            let sentValue = piece.index(after: piece.firstIndex(of: "=")!) != piece.endIndex
            switch pair[0].lowercased() {
            case "example" where selection == nil && sentValue:
                selection = .example(Self.unquoted(pair[1]))
            case "code" where selection == nil && sentValue:
                let value = Self.unquoted(pair[1])
                selection = Int(value).map { .code($0) } ?? .invalidCode(value)
            case "delay" where timingViolation == nil:
                let range = NumberRange.delayMilliseconds.capped(at: delayCeiling)
                guard let latency = Latency(pair[1], within: range) else {
                    timingViolation = Violation("header.Prefer", "delay=\(pair[1]): expected \(Latency.expected(within: range))")
                    continue
                }
                delay = latency
            case "fault" where timingViolation == nil:
                guard let known = Fault(rawValue: pair[1]) else {
                    timingViolation = Violation("header.Prefer", "unknown fault \"\(pair[1])\" (known: \(Fault.allCases.map(\.rawValue).joined(separator: ", ")))")
                    continue
                }
                fault = known
            default:
                continue
            }
        }
    }

    private static func unquoted(_ value: String) -> String {
        value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
    }
}
