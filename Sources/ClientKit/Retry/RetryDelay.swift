import Foundation

/// How long to wait before each retry.
///
/// ```swift
/// RetryDelay.exponential(initial: .milliseconds(100), multiplier: 2, max: .seconds(1)).delay(beforeRetry: 3)  // 400 ms
/// ```
public enum RetryDelay: Sendable {
    /// Retry at once.
    case immediate
    /// The same wait before every retry.
    case constant(Duration)
    /// `initial`, then each wait `multiplier` times the previous one, never above `max`.
    case exponential(initial: Duration, multiplier: Double, max: Duration)
    /// The wait before retry `n` (1 for the first retry).
    case custom(@Sendable (Int) -> Duration)

    /// The wait before retry number `retry`, counting from 1.
    public func delay(beforeRetry retry: Int) -> Duration {
        switch self {
        case .immediate:
            return .zero
        case .constant(let duration):
            return duration
        case .exponential(let initial, let multiplier, let max):
            // Grow in floating point so a long run of retries cannot overflow `Duration`.
            let seconds = initial.seconds * pow(multiplier, Double(retry - 1))
            return seconds >= max.seconds ? max : .seconds(seconds)
        case .custom(let delay):
            return delay(retry)
        }
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
