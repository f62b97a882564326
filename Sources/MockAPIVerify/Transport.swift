public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the runner sends a route's request: the team's own `URLSession` (its configuration,
/// protocol classes, interceptors) or any send function.
public struct Transport: Sendable {
    public let send: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    public init(_ send: @escaping @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.send = send
    }

    /// Sends through `session`. Each exchange ends within its request's `timeoutInterval`
    /// (60 s unless the request says otherwise) counted over the whole exchange, whatever the
    /// session does. On Linux, give the session a ``DecliningAuthChallenges`` delegate (or one
    /// that answers HTTP authentication challenges with `.cancelAuthenticationChallenge`): a
    /// `401` with `WWW-Authenticate: Basic` then comes back as the `401` at once instead of at
    /// the deadline.
    public static func urlSession(_ session: URLSession) -> Transport {
        Transport { request in
            try await BoundedExchange.send(request, on: session, seconds: request.timeoutInterval)
        }
    }

    /// An ephemeral session of the runner's own that declines authentication challenges
    /// (not `URLSession.shared`, which on Linux waits for ever on a `401` with
    /// `WWW-Authenticate: Basic`), each exchange bounded by its request's `timeoutInterval`.
    public static var shared: Transport { urlSession(defaultSession) }

    private static let defaultSession = URLSession(configuration: .ephemeral, delegate: DecliningAuthChallenges(), delegateQueue: nil)
}
