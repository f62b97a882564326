import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore

/// Talks to a mock server's `/__mockapi/` endpoints: resets sequences, reads the journal.
///
/// It has its own session: the team's transport (and whatever it adds) is for their requests only.
struct AdminClient: Sendable {
    let baseURL: URL
    /// Sent as `Mockapi-Admin-Token` when the server was started with `--admin-token`.
    var token: String?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func resetScenarios() async throws {
        var request = request(endpoint("scenarios"))
        request.httpMethod = "DELETE"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw Failure(description: "it is not a mockapi server (DELETE /__mockapi/scenarios failed)")
        }
    }

    /// Journal entries recorded after `since`, oldest first, the newest id at the time of reading,
    /// and how many requests after `since` the server evicted before they could be read.
    func journal(since: Int, limit: Int? = nil) async throws -> (entries: [[String: Any]], lastID: Int, evicted: Int) {
        var components = URLComponents(url: endpoint("requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "since", value: String(since))]
            + (limit.map { [URLQueryItem(name: "limit", value: String($0))] } ?? [])
        let (data, response) = try await URLSession.shared.data(for: request(components.url!))
        guard let http = response as? HTTPURLResponse, http.statusCode == 200,
              let lastID = http.value(forHTTPHeaderField: Responder.journalLastIDHeader).flatMap(Int.init),
              let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw Failure(description: "GET /__mockapi/requests did not answer with a journal page (is it a current mockapi server?)")
        }
        // A server from before the header evicted silently; it reads as none.
        let evicted = http.value(forHTTPHeaderField: RequestJournal.evictedHeader).flatMap(Int.init) ?? 0
        return (entries, lastID, evicted)
    }

    /// The newest journal id: where a reader of what comes next starts.
    func journalCursor() async throws -> Int {
        try await journal(since: 0, limit: 0).lastID
    }

    /// `GET /__mockapi/routes`: the server's contracts.
    func routes() async throws -> [[String: Any]] {
        let (data, response) = try await URLSession.shared.data(for: request(endpoint("routes")))
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let routes = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw Failure(description: "GET /__mockapi/routes did not answer with the route table")
        }
        return routes
    }

    private func request(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        if let token { request.setValue(token, forHTTPHeaderField: AdminAccess.tokenHeader) }
        return request
    }

    private func endpoint(_ name: String) -> URL {
        baseURL.appendingPathComponent("__mockapi").appendingPathComponent(name)
    }
}
