public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends ``Endpoint``s to the configured environment and decodes the answers.
///
/// One generic request path serves every route: build the `URLRequest`, send it (retrying per
/// ``RetryPolicy``), map non-2xx answers to ``APIError/server(status:envelope:body:)``, decode
/// with ``decoder``.
///
/// ```swift
/// let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 8080)))
/// let project: Project = try await client.request(Route.project(id: 1))
/// let backings = try await client.request(Route.backings, as: [Backing].self)
/// ```
public final class APIClient: Sendable {
    /// Environment, identity, token, timeout and retry policy.
    public let configuration: ClientConfiguration
    /// The session requests go through.
    public let session: URLSession

    /// Creates a client.
    public init(configuration: ClientConfiguration, session: URLSession = .shared) {
        self.configuration = configuration
        self.session = session
    }

    /// The decoder for response bodies: snake_case keys, dates as seconds since 1970.
    ///
    /// A fresh one per call: `JSONDecoder` is a class, so sharing one would share its mutable state.
    public var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// The encoder for JSON bodies: snake_case keys, dates as seconds since 1970, sorted keys so
    /// equal values give equal bytes.
    public var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// The headers every request carries, before the endpoint's own.
    public var defaultHeaders: [String: String] {
        var headers = [
            "User-Agent": "\(configuration.appName)/\(configuration.appVersion) (ClientKit)",
            "Accept": "application/json",
            "Accept-Language": configuration.language,
        ]
        if let token = configuration.token {
            headers["Authorization"] = "token \(token)"
        }
        return headers
    }
}
