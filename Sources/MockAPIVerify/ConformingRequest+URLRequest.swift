package import Foundation
package import MockAPICore

#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

extension ConformingRequest {
    /// The request sent to `baseURL`: its path after the base URL's own (`https://api.example.com/v2`
    /// keeps `/v2`), the query encoded as `URLComponents` encodes it.
    package func urlRequest(baseURL: URL, timeout: TimeInterval = 60) -> URLRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let base = components.percentEncodedPath
        components.percentEncodedPath = (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.name, value: $0.value) }
        var request = URLRequest(url: components.url!, timeoutInterval: timeout)
        request.httpMethod = method.rawValue
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        request.httpBody = body
        return request
    }
}
