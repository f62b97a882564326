/// Whether and how a failed request is tried again.
///
/// ```swift
/// RetryPolicy(maxAttempts: 3, delay: .constant(.milliseconds(300)))   // retries transport errors, 5xx and 429
/// ```
/// A `Retry-After: <seconds>` header on the failed response replaces the computed delay.
public struct RetryPolicy: Sendable {
    /// Total attempts, the first one included; 1 means no retry.
    public var maxAttempts: Int
    /// The wait before each retry.
    public var delay: RetryDelay
    /// Whether a failure is worth another attempt.
    public var shouldRetry: @Sendable (APIError) -> Bool

    /// Creates a policy; `shouldRetry` defaults to ``isTransient(_:)``.
    public init(
        maxAttempts: Int,
        delay: RetryDelay = .immediate,
        shouldRetry: @escaping @Sendable (APIError) -> Bool = RetryPolicy.isTransient
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.delay = delay
        self.shouldRetry = shouldRetry
    }

    /// One attempt, no retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The default predicate: transport errors, 5xx and 429 are retried; other 4xx, decoding
    /// failures and unusable responses are not, since the same request would fail the same way.
    @Sendable public static func isTransient(_ error: APIError) -> Bool {
        switch error {
        case .transport:
            true
        case .server(let status, _, _):
            status == 429 || (500...599).contains(status)
        case .decoding, .invalidResponse:
            false
        }
    }
}
