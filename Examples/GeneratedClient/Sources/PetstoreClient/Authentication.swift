import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// The app's own credentials on every request, as the document's security schemes ask: the
/// OAuth token as `Authorization: Bearer`, the API key as the `api_key` header. The generated
/// client adds neither; an app does it in a middleware like this one.
public struct Authentication: ClientMiddleware {
    public var token: String
    public var apiKey: String

    public init(token: String, apiKey: String) {
        self.token = token
        self.apiKey = apiKey
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        request.headerFields[HTTPField.Name("api_key")!] = apiKey
        return try await next(request, body, baseURL)
    }
}
