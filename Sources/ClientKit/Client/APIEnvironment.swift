public import Foundation

/// Where requests go: a named base URL, chosen at run time.
///
/// ClientKit knows no real hosts; an API module declares its own environments and the app picks
/// one at launch, e.g. from a launch argument for UI tests:
///
/// ```swift
/// extension APIEnvironment {
///     static let production = APIEnvironment(name: "production", baseURL: URL(string: "https://api.example.com")!)
/// }
/// let environment = APIEnvironment.parse("local:8080", known: [.production]) ?? .production
/// ```
public struct APIEnvironment: Sendable, Equatable {
    /// A short name (`production`, `staging`, `local`).
    public var name: String
    /// The URL every endpoint path is appended to.
    public var baseURL: URL

    /// Creates an environment.
    public init(name: String, baseURL: URL) {
        self.name = name
        self.baseURL = baseURL
    }

    /// A mock server on this machine: `http://127.0.0.1:PORT`.
    public static func local(port: Int) -> APIEnvironment {
        APIEnvironment(name: "local", baseURL: URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// Reads an environment from text such as a launch argument or an environment variable:
    /// the name of one of `known`, `local:PORT`, or an absolute `http(s)` URL.
    public static func parse(_ text: String, known: [APIEnvironment] = []) -> APIEnvironment? {
        if let match = known.first(where: { $0.name == text }) { return match }
        if text.hasPrefix("local:"), let port = Int(text.dropFirst("local:".count)), (1...65_535).contains(port) {
            return .local(port: port)
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host != nil
        else { return nil }
        return APIEnvironment(name: url.host ?? text, baseURL: url)
    }
}
