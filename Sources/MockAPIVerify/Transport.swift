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

    /// Sends through `session`.
    public static func urlSession(_ session: URLSession) -> Transport {
        Transport { request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return (data, http)
        }
    }

    /// `URLSession.shared`.
    public static var shared: Transport { urlSession(.shared) }
}
