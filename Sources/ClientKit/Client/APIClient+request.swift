public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Sends `route` and decodes the body as `M`.
    ///
    /// ```swift
    /// let project = try await client.request(Route.project(id: 1), as: Project.self)
    /// ```
    /// - Throws: ``APIError`` (``APIError/decoding(_:)`` names the JSON path), or `CancellationError`.
    public func request<M: Decodable>(_ route: some EndpointConvertible, as type: M.Type = M.self) async throws -> M {
        let endpoint = route.endpoint
        let (data, _) = try await perform(urlRequest(for: endpoint), expectingJSON: true)
        return try decode(M.self, from: data, endpoint: endpoint.description)
    }

    /// Sends `route` and decodes the body as an array of `M`, strictly: one element that does
    /// not decode fails the whole array, and the error's path starts with its index (`[3].id`).
    public func request<M: Decodable>(_ route: some EndpointConvertible, as type: [M].Type) async throws -> [M] {
        let endpoint = route.endpoint
        let (data, _) = try await perform(urlRequest(for: endpoint), expectingJSON: true)
        return try decode([M].self, from: data, endpoint: endpoint.description)
    }

    /// Sends `route` and decodes the body as `M`, or `nil` when the body is empty or JSON `null`.
    public func request<M: Decodable>(_ route: some EndpointConvertible, as type: M?.Type) async throws -> M? {
        let endpoint = route.endpoint
        let (data, _) = try await perform(urlRequest(for: endpoint), expectingJSON: true)
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return nil }
        return try decode(M?.self, from: data, endpoint: endpoint.description)
    }

    /// Decodes `data` with ``decoder`` exactly as the request methods do, so a contract runner can
    /// check a body it fetched with ``send(_:)``.
    ///
    /// - Parameter endpoint: The call the body came from, for the failure message (`GET /v1/projects`).
    /// - Throws: ``APIError/decoding(_:)`` with the JSON path and what was expected and found.
    public func decode<M: Decodable>(_ type: M.Type = M.self, from data: Data, endpoint: String = "") throws -> M {
        do {
            return try decoder.decode(M.self, from: data)
        } catch let error as DecodingError {
            throw APIError.decoding(DecodingFailure(error, data: data, endpoint: endpoint))
        } catch {
            throw APIError.decoding(DecodingFailure(endpoint: endpoint, path: "", message: "\(error)"))
        }
    }
}
