import Foundation
import MockAPICore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a mock server's `/__mockapi/` endpoints: resets sequences, reads the journal.
///
/// It has its own session: the team's transport (and whatever it adds) is for their requests only.
struct AdminClient: JournalSource {
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

    /// `GET /__mockapi/requests` with the query's filters, read into typed entries.
    func page(_ query: JournalQuery) async throws -> JournalPage {
        var components = URLComponents(url: endpoint("requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = query.pairs.map { URLQueryItem(name: $0.name, value: $0.value) }
        let (data, response) = try await URLSession.shared.data(for: request(components.url!))
        guard let http = response as? HTTPURLResponse, http.statusCode == 200,
            let lastID = http.value(forHTTPHeaderField: Responder.journalLastIDHeader).flatMap(Int.init),
            let entries = try? JournalEntry.page(from: data)
        else {
            throw Failure(description: "GET /__mockapi/requests did not answer with a journal page (is it a current mockapi server?)")
        }
        // A server from before the header evicted silently; it reads as none.
        let evicted = http.value(forHTTPHeaderField: RequestJournal.evictedHeader).flatMap(Int.init) ?? 0
        return JournalPage(entries: entries, lastID: lastID, evicted: evicted)
    }

    /// `GET /__mockapi/routes`: the server's contracts.
    func routes() async throws -> [RouteListing] {
        let (data, response) = try await URLSession.shared.data(for: request(endpoint("routes")))
        guard (response as? HTTPURLResponse)?.statusCode == 200, let routes = RouteListing.list(from: data) else {
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
