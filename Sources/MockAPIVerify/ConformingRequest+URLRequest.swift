package import Foundation
package import MockAPICore

#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

extension ConformingRequest {
    /// The request sent to `baseURL`, at `url(baseURL:)`.
    package func urlRequest(baseURL: URL, timeout: TimeInterval = 60) -> URLRequest {
        var request = URLRequest(url: url(baseURL: baseURL), timeoutInterval: timeout)
        request.httpMethod = method.rawValue
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        request.httpBody = body
        return request
    }
}
