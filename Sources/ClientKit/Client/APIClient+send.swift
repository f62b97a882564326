public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension APIClient {
    /// Sends `route` once and returns the raw answer, whatever its status: no retry, no status
    /// check, no decoding. The contract runner uses it to see exactly what the server said.
    ///
    /// - Throws: ``APIError/transport(_:)``, ``APIError/invalidResponse(_:)``, or `CancellationError`.
    public func send(_ route: some EndpointConvertible) async throws -> (data: Data, response: HTTPURLResponse) {
        try await transfer(urlRequest(for: route.endpoint))
    }

    /// Sends `route` with the configured retry policy and returns the 2xx answer's body and response.
    ///
    /// - Throws: ``APIError/server(status:envelope:body:)`` for a non-2xx status (after the last
    ///   attempt), ``APIError/transport(_:)``, ``APIError/invalidResponse(_:)``, or `CancellationError`.
    public func response(for route: some EndpointConvertible) async throws -> (data: Data, response: HTTPURLResponse) {
        try await perform(urlRequest(for: route.endpoint), expectingJSON: false)
    }

    /// Sends `request` until it succeeds, the policy gives up, or the task is cancelled.
    ///
    /// With `expectingJSON`, a 2xx answer whose non-empty body is labelled as something other
    /// than JSON (a captive portal's HTML page) counts as a server error too.
    func perform(_ request: URLRequest, expectingJSON: Bool) async throws -> (data: Data, response: HTTPURLResponse) {
        let policy = configuration.retry
        var attempt = 1
        while true {
            let failure: APIError
            var retryAfter: Duration?
            do {
                let (data, response) = try await transfer(request)
                guard let error = serverError(data, response, expectingJSON: expectingJSON) else {
                    return (data, response)
                }
                failure = error
                retryAfter = response.retryAfter
            } catch let error as APIError {
                failure = error
            }
            guard attempt < policy.maxAttempts, policy.shouldRetry(failure) else { throw failure }
            let delay = retryAfter ?? policy.delay.delay(beforeRetry: attempt)
            if delay > .zero {
                try await configuration.sleep(delay)
            }
            attempt += 1
        }
    }

    /// One round trip; URLSession's errors become ``APIError/transport(_:)``, cancellation stays `CancellationError`.
    func transfer(_ request: URLRequest) async throws -> (data: Data, response: HTTPURLResponse) {
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            if Task.isCancelled || error is CancellationError || (error as? URLError)?.code == .cancelled {
                throw CancellationError()
            }
            throw APIError.transport(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIError.invalidResponse("not an HTTP response from \(request.url?.absoluteString ?? "?")")
        }
        return (data, http)
    }

    /// The error a finished exchange amounts to, or `nil` when it succeeded.
    func serverError(_ data: Data, _ response: HTTPURLResponse, expectingJSON: Bool) -> APIError? {
        let isSuccess = (200...299).contains(response.statusCode)
        let isUnexpectedFormat = expectingJSON && !data.isEmpty && !response.isLabelledJSON
        guard !isSuccess || isUnexpectedFormat else { return nil }
        let envelope = try? decoder.decode(ErrorEnvelope.self, from: data)
        return .server(status: response.statusCode, envelope: envelope, body: data)
    }
}
