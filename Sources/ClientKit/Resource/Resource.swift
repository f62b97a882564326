public import Foundation

/// A URL and how to parse what it returns, for responses that are not JSON models (objc.io style).
///
/// ```swift
/// let avatar = Resource(url: user.avatarURL) { UIImage(data: $0) }
/// let csv = Resource(Endpoint(.get, "/v1/reports/pledges.csv")) { String(decoding: $0, as: UTF8.self) }
/// let image = try await client.load(avatar)
/// ```
public struct Resource<A>: Sendable {
    let target: ResourceTarget
    /// Turns the 2xx body into the value.
    public let parse: @Sendable (Data) throws -> A

    /// A resource at an absolute URL, fetched with `GET`.
    public init(url: URL, parse: @escaping @Sendable (Data) throws -> A) {
        self.target = .url(url)
        self.parse = parse
    }

    /// A resource described by a route below the environment's base URL.
    public init(_ route: some EndpointConvertible, parse: @escaping @Sendable (Data) throws -> A) {
        self.target = .endpoint(route.endpoint)
        self.parse = parse
    }

    /// The same request, its result transformed by `transform`.
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        let parse = self.parse
        return Resource<B>(target: target) { try transform(parse($0)) }
    }

    private init(target: ResourceTarget, parse: @escaping @Sendable (Data) throws -> A) {
        self.target = target
        self.parse = parse
    }
}
