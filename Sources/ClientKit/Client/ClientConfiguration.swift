public import Foundation

/// Everything an ``APIClient`` needs besides its `URLSession`.
///
/// ```swift
/// var configuration = ClientConfiguration(environment: .local(port: server.port), appName: "Backer", appVersion: "2.1")
/// configuration.token = "abc"
/// configuration.retry = RetryPolicy(maxAttempts: 3, delay: .exponential(initial: .milliseconds(200), multiplier: 2, max: .seconds(2)))
/// ```
public struct ClientConfiguration: Sendable {
    /// Where requests go.
    public var environment: APIEnvironment
    /// The app name in `User-Agent: AppName/Version (ClientKit)`.
    public var appName: String
    /// The app version in `User-Agent`.
    public var appVersion: String
    /// The `Accept-Language` value.
    public var language: String
    /// The OAuth token sent as `Authorization: token <token>`; `nil` sends no `Authorization`.
    public var token: String?
    /// The per-request timeout in seconds.
    public var timeout: TimeInterval
    /// How failed requests are retried; ``RetryPolicy/none`` by default.
    public var retry: RetryPolicy
    /// Waits between retry attempts; tests inject one that records the delays instead.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a configuration.
    public init(
        environment: APIEnvironment,
        appName: String = "ClientKit",
        appVersion: String = "1.0",
        language: String = "en",
        token: String? = nil,
        timeout: TimeInterval = 30,
        retry: RetryPolicy = .none,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.environment = environment
        self.appName = appName
        self.appVersion = appVersion
        self.language = language
        self.token = token
        self.timeout = timeout
        self.retry = retry
        self.sleep = sleep
    }
}
