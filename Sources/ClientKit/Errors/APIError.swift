public import Foundation

/// Why a request through ``APIClient`` failed.
///
/// ```swift
/// do { _ = try await client.request(Route.project(id: 1), as: Project.self) }
/// catch APIError.server(status: 404, let envelope?, _) { show(envelope.errorMessages) }
/// ```
public enum APIError: Error, Sendable {
    /// The server answered with a non-2xx status, or with a body that is not JSON where JSON was
    /// expected; `envelope` is the decoded ``ErrorEnvelope`` when the body is one.
    case server(status: Int, envelope: ErrorEnvelope?, body: Data)
    /// The body did not decode into the requested model.
    case decoding(DecodingFailure)
    /// The request never got an HTTP answer (no connection, timeout, TLS, …).
    case transport(any Error)
    /// The request could not be built (a URL that cannot be formed, a body that cannot be encoded),
    /// or the answer was not HTTP; the text says which.
    case invalidResponse(String)
}

extension APIError: CustomStringConvertible {
    /// A one-line summary for logs and test failures.
    public var description: String {
        switch self {
        case .server(let status, let envelope?, _):
            "HTTP \(status): \(envelope.errorMessages.joined(separator: "; "))"
        case .server(let status, nil, let body):
            "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))"
        case .decoding(let failure):
            failure.description
        case .transport(let error):
            "transport error: \(error)"
        case .invalidResponse(let reason):
            reason
        }
    }
}
