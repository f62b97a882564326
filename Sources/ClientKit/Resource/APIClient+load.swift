import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Fetches `resource` (retrying per the policy) and parses the 2xx body with its `parse`.
    ///
    /// ```swift
    /// let data = try await client.load(Resource(url: imageURL) { $0 })
    /// ```
    /// - Throws: ``APIError`` for the exchange, ``APIError/decoding(_:)`` when `parse` throws a
    ///   `DecodingError`, otherwise whatever `parse` throws.
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        let endpoint: Endpoint
        let request: URLRequest
        switch resource.target {
        case .endpoint(let target):
            endpoint = target
            request = try urlRequest(for: target)
        case .url(let url):
            endpoint = Endpoint(.get, url.absoluteString)
            request = try urlRequest(endpoint, at: url)
        }
        let (data, _) = try await perform(request, expectingJSON: false)
        do {
            return try resource.parse(data)
        } catch let error as DecodingError {
            throw APIError.decoding(DecodingFailure(error, data: data, endpoint: endpoint.description))
        }
    }
}
