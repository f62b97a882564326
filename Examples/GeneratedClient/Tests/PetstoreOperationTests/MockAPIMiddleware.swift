import Foundation
import HTTPTypes
import MockAPIVerify
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated client's link to the runner, for one call: adds the header fields the runner
/// asks for (`Prefer: example=NAME`) and records the request as sent and the answer as received,
/// before the generated code decodes it. Last in the client's middlewares, next to the transport,
/// so that it records what the app's own middlewares made of the request.
struct MockAPIMiddleware: ClientMiddleware {
    let call: OperationCall

    init(_ call: OperationCall) { self.call = call }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for (name, value) in call.headerFields {
            if let field = HTTPField.Name(name) { request.headerFields[field] = value }
        }
        // Bodies are read whole here (mock answers are small) and handed on as the same bytes.
        var sentBody: Data?
        if let body { sentBody = try await Data(collecting: body, upTo: 64 << 20) }
        call.record(request: Self.urlRequest(request, body: sentBody, baseURL: baseURL))
        let (response, responseBody) = try await next(request, sentBody.map { HTTPBody($0) }, baseURL)
        var received = Data()
        if let responseBody { received = try await Data(collecting: responseBody, upTo: 64 << 20) }
        var fields: [String: String] = [:]
        for field in response.headerFields { fields[field.name.canonicalName] = field.value }
        if let url = URL(string: baseURL.absoluteString + (request.path ?? "")),
            let answer = HTTPURLResponse(url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)
        {
            call.record(response: answer, body: received)
        }
        return (response, responseBody == nil ? nil : HTTPBody(received))
    }

    /// The request as Foundation spells it: what the runner reports and reads upload parts from.
    static func urlRequest(_ request: HTTPRequest, body: Data?, baseURL: URL) -> URLRequest {
        var urlRequest = URLRequest(url: URL(string: baseURL.absoluteString + (request.path ?? "")) ?? baseURL)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.canonicalName) }
        urlRequest.httpBody = body
        return urlRequest
    }
}
