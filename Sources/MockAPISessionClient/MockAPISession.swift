public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One mock session on a running `mockapi serve`, for a UI test running beside others: its own
/// response sequences and its own journal. Foundation only (no mockapi module), so it links into
/// an iOS UI-test target.
///
/// ```swift
/// let session = try await MockAPISession.create(server: URL(string: "http://127.0.0.1:8080")!)
/// app.launchEnvironment["API_BASE_URL"] = session.baseURL.absoluteString
/// …
/// #expect(try await session.requests(contract: "backing").count == 1)
/// try await session.delete()
/// ```
public struct MockAPISession: Sendable {
    /// 16 lowercase hex digits.
    public let id: String
    /// `http://HOST:PORT/s/ID`: the app's API base URL for this session.
    public let baseURL: URL
    /// The server's own URL, where the admin endpoints are.
    public let server: URL
    /// Sent as `Mockapi-Admin-Token` when the server was started with `--admin-token`.
    public let adminToken: String?
    private let urlSession: URLSession

    /// What a call got back that it did not expect.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let status: Int
        public let body: String
        public var description: String { "mockapi answered \(status): \(body)" }
    }

    /// Makes a new session (`POST /__mockapi/sessions`), or with `id`, one with that id
    /// (`PUT /__mockapi/sessions/ID`): behind a balancer that keeps each session on one
    /// `mockapi serve` by its id, the server the id leads to is the one that makes it.
    /// `id`: 16 lowercase hex digits (``randomID()``); one already in use fails with 409.
    public static func create(server: URL, id: String? = nil, adminToken: String? = nil, urlSession: URLSession = .shared) async throws -> MockAPISession {
        let endpoint = server.appendingPathComponent("__mockapi/sessions" + (id.map { "/\($0)" } ?? ""))
        let (data, _) = try await send(id == nil ? "POST" : "PUT", endpoint, adminToken: adminToken, urlSession: urlSession, expecting: 201)
        struct Created: Decodable {
            var id: String
            var baseURL: String
        }
        let created = try JSONDecoder().decode(Created.self, from: data)
        guard let baseURL = URL(string: created.baseURL) else { throw Failure(status: 201, body: "baseURL \(created.baseURL) is not a URL") }
        return MockAPISession(id: created.id, baseURL: baseURL, server: server, adminToken: adminToken, urlSession: urlSession)
    }

    /// A new session id: 16 random lowercase hex digits, for ``create(server:id:adminToken:urlSession:)``.
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Starts its sequences over and empties its journal.
    public func reset() async throws {
        _ = try await Self.send("POST", server.appendingPathComponent("__mockapi/sessions/\(id)/reset"), adminToken: adminToken, urlSession: urlSession, expecting: 200)
    }

    /// Ends it; its base URL answers 404 from then on.
    public func delete() async throws {
        _ = try await Self.send("DELETE", server.appendingPathComponent("__mockapi/sessions/\(id)"), adminToken: adminToken, urlSession: urlSession, expecting: 204)
    }

    /// One journaled request of the session, as `GET /__mockapi/requests` lists it.
    public struct Request: Decodable, Sendable {
        public let id: Int
        public let method: String
        public let path: String
        public let query: String
        public let headers: [String: String]
        public let contract: String?
        public let response: String?
        public let status: Int
        public let problem: String?
    }

    /// The session's journal, oldest first; only requests `contract` matched when given.
    public func requests(contract: String? = nil) async throws -> [Request] {
        var components = URLComponents(url: server.appendingPathComponent("__mockapi/requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "session", value: id)] + (contract.map { [URLQueryItem(name: "contract", value: $0)] } ?? [])
        let (data, _) = try await Self.send("GET", components.url!, adminToken: adminToken, urlSession: urlSession, expecting: 200)
        return try JSONDecoder().decode([Request].self, from: data)
    }

    private static func send(_ method: String, _ url: URL, adminToken: String?, urlSession: URLSession, expecting status: Int) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let adminToken { request.setValue(adminToken, forHTTPHeaderField: "Mockapi-Admin-Token") }
        let (data, response) = try await urlSession.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == status else {
            throw Failure(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: String(decoding: data, as: UTF8.self))
        }
        return (data, http)
    }
}
