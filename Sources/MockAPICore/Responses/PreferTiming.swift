/// The timing parts of a `Prefer` header: `Prefer: delay=800` (or `200-800`,
/// `lognormal:300:0.5`) and `Prefer: fault=reset`, next to `example=`/`code=`.
public struct PreferTiming: Sendable, Equatable {
    public var delay: Latency?
    public var fault: Fault?

    public struct Invalid: Error, Equatable {
        public var violation: Violation
    }

    /// Reads `header`; a delay or fault it cannot use is a violation, like an unknown example,
    /// and so is a delay above `delayCeiling` milliseconds (`--max-delay`).
    public init(_ header: String?, delayCeiling: Double = Latency.defaultCeilingMilliseconds) throws(Invalid) {
        guard let header else { return }
        for piece in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "delay":
                let range = NumberRange.delayMilliseconds.capped(at: delayCeiling)
                guard let latency = Latency(pair[1], within: range) else {
                    throw Invalid(violation: Violation("header.Prefer", "delay=\(pair[1]): expected \(Latency.expected(within: range))"))
                }
                delay = latency
            case "fault":
                guard let known = Fault(rawValue: pair[1]) else {
                    throw Invalid(violation: Violation("header.Prefer", "unknown fault \"\(pair[1])\" (known: \(Fault.allCases.map(\.rawValue).joined(separator: ", ")))"))
                }
                fault = known
            default:
                continue
            }
        }
    }
}
