public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension APIClient {
    /// Characters kept as they are in a path: those URL paths allow, plus `%` so an already
    /// escaped segment is not escaped twice.
    private static let pathAllowed = CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))

    /// The `URLRequest` for `endpoint`: base URL + path + query, method, timeout, default and
    /// endpoint headers, and the body (JSON, or multipart with a fresh random boundary).
    ///
    /// - Throws: ``APIError/invalidResponse(_:)`` when the URL cannot be formed or the body cannot be encoded.
    public func urlRequest(for endpoint: Endpoint) throws -> URLRequest {
        try urlRequest(for: endpoint, boundary: MultipartBody.randomBoundary())
    }

    /// ``urlRequest(for:)`` with a fixed multipart boundary, so tests can pin the exact bytes.
    package func urlRequest(for endpoint: Endpoint, boundary: String) throws -> URLRequest {
        try urlRequest(endpoint, at: url(for: endpoint), boundary: boundary)
    }

    /// The absolute URL for `endpoint` in the configured environment.
    public func url(for endpoint: Endpoint) throws -> URL {
        let path = endpoint.path.hasPrefix("/") ? endpoint.path : "/" + endpoint.path
        guard let escapedPath = path.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) else {
            throw APIError.invalidResponse("cannot escape path \(endpoint.path)")
        }
        let query = QueryItem.encode(endpoint.query)
        let text = baseURLString + escapedPath + (query.isEmpty ? "" : "?" + query)
        guard let url = URL(string: text) else {
            throw APIError.invalidResponse("cannot form a URL from \(text)")
        }
        return url
    }

    /// Resolves a URL the server handed out (a next page): absolute, or a path below the base URL.
    func url(resolving reference: String) throws -> URL {
        if let url = URL(string: reference), url.scheme != nil { return url }
        let path = reference.hasPrefix("/") ? reference : "/" + reference
        guard let url = URL(string: baseURLString + path) else {
            throw APIError.invalidResponse("cannot form a URL from \(reference)")
        }
        return url
    }

    /// `endpoint`'s method, headers and body sent to `url`.
    ///
    /// The token only goes to the configured environment's origin, never to a foreign host a
    /// response pointed at.
    func urlRequest(_ endpoint: Endpoint, at url: URL, boundary: String = MultipartBody.randomBoundary()) throws -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = endpoint.method.rawValue
        if endpoint.method == .get, !endpoint.body.isNone {
            // URLSession on Linux fails such a request with an opaque "resource exceeds maximum size".
            throw APIError.invalidResponse("\(endpoint) has a body, but a GET request cannot carry one")
        }
        var headers = defaultHeaders
        if !isSameOrigin(url) {
            headers["Authorization"] = nil
        }
        switch endpoint.body {
        case .none:
            break
        case .json(let value):
            do {
                request.httpBody = try encoder.encode(value)
            } catch {
                throw APIError.invalidResponse("cannot encode the JSON body of \(endpoint): \(error)")
            }
            headers["Content-Type"] = "application/json"
        case .upload(let upload):
            let multipart = MultipartBody(boundary: boundary)
            request.httpBody = multipart.encode(upload)
            headers["Content-Type"] = multipart.contentType
        }
        // Header names are case-insensitive: drop a default the endpoint overrides under any spelling.
        let overridden = Set(endpoint.headers.keys.map { $0.lowercased() })
        headers = headers.filter { !overridden.contains($0.key.lowercased()) }
        headers.merge(endpoint.headers) { _, endpointValue in endpointValue }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// The base URL without a trailing slash, ready for a path to be appended.
    private var baseURLString: String {
        var base = configuration.environment.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    private func isSameOrigin(_ url: URL) -> Bool {
        let base = configuration.environment.baseURL
        return url.scheme?.lowercased() == base.scheme?.lowercased()
            && url.host?.lowercased() == base.host?.lowercased()
            && url.port == base.port
    }
}
