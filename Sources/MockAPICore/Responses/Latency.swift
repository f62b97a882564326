#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long an answer waits before it is sent, in milliseconds: fixed, uniform in a range, or
/// log-normal (a median and a spread, as real network latency is: mostly near the median, with
/// a long slow tail).
public enum Latency: Sendable, Equatable {
    case fixed(Double)
    case uniform(min: Double, max: Double)
    case logNormal(median: Double, sigma: Double)

    /// One wait, in milliseconds.
    public func sample() -> Double {
        switch self {
        case .fixed(let milliseconds):
            return milliseconds
        case .uniform(let low, let high):
            return Double.random(in: low...high)
        case .logNormal(let median, let sigma):
            // Box-Muller: a standard normal from two uniforms.
            let u1 = Double.random(in: Double.ulpOfOne..<1), u2 = Double.random(in: 0..<1)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            return median * exp(sigma * normal)
        }
    }

    /// `800`, `200-800` or `lognormal:300:0.5` (the `--delay` flag and `Prefer: delay=`).
    public init?(_ text: String) {
        let parts = text.split(separator: ":").map(String.init)
        if parts.count == 3, parts[0] == "lognormal", let median = Double(parts[1]), let sigma = Double(parts[2]), median >= 0, sigma >= 0 {
            self = .logNormal(median: median, sigma: sigma)
        } else if let range = text.firstIndex(of: "-"), let low = Double(text[..<range]), let high = Double(text[text.index(after: range)...]),
                  low >= 0, high >= low {
            self = .uniform(min: low, max: high)
        } else if let milliseconds = Double(text), milliseconds >= 0 {
            self = .fixed(milliseconds)
        } else {
            return nil
        }
    }
}

/// A broken answer on purpose, to test how a client copes with the network failing.
public enum Fault: String, Sendable, CaseIterable {
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

    public static let trickleBytesPerSecond = 1_000
}
