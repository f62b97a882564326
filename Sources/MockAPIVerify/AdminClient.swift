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
    /// Read this session's journal rather than the server-wide one (`?session=ID` on `page`).
    var session: String? = nil

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `?session=ID` named a session the server no longer has (ended, or expired, since it was listed).
    struct SessionGone: Error, CustomStringConvertible {
        var id: String
        var description: String { "session \(id) does not exist (any more)" }
    }

    /// The server's admin guard answered 403: the token was wrong or missing (or the Host was not
    /// loopback). Said as such, not as "not a mockapi server": it is one, it said no.
    struct Refused: Error, CustomStringConvertible {
        /// `GET /__mockapi/routes`.
        var request: String
        /// The `error` of the 403's body, when it has one.
        var said: String?
        var tokenGiven: Bool

        var description: String {
            let token = tokenGiven ? "the --admin-token given was refused" : "no --admin-token was given"
            return "the server answered 403 to \(request): \(token)" + (said.map { " (the server says: \($0))" } ?? "")
        }
    }

    func resetScenarios() async throws {
        var request = request(endpoint("scenarios"))
        request.httpMethod = "DELETE"
        let (data, response) = try await URLSession.shared.data(for: request)
        try refusal("DELETE /__mockapi/scenarios", response, data)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw Failure(description: "it is not a mockapi server (DELETE /__mockapi/scenarios failed)")
        }
    }

    /// `GET /__mockapi/requests` with the query's filters, read into typed entries.
    func page(_ query: JournalQuery) async throws -> JournalPage {
        var components = URLComponents(url: endpoint("requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = query.pairs.map { URLQueryItem(name: $0.name, value: $0.value) } + sessionItems
        let (data, response) = try await URLSession.shared.data(for: request(components.url!))
        try refusal("GET /__mockapi/requests", response, data)
        if let session, (response as? HTTPURLResponse)?.statusCode == 404 { throw SessionGone(id: session) }
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

    /// `GET /__mockapi/sessions`: the ids of the server's live sessions, oldest first.
    func sessions() async throws -> [String] {
        let (data, response) = try await URLSession.shared.data(for: request(endpoint("sessions")))
        try refusal("GET /__mockapi/sessions", response, data)
        guard (response as? HTTPURLResponse)?.statusCode == 200, let list = (try? JSONParser.parse(Array(data)))?.arrayValue,
            case let ids = list.compactMap({ $0.objectValue?["id"]?.stringValue }), ids.count == list.count
        else {
            throw Failure(description: "GET /__mockapi/sessions did not answer with the session list (is it a mockapi server with sessions?)")
        }
        return ids
    }

    /// `GET /__mockapi/routes`: the server's contracts.
    func routes() async throws -> [RouteListing] {
        let (data, response) = try await URLSession.shared.data(for: request(endpoint("routes")))
        try refusal("GET /__mockapi/routes", response, data)
        guard (response as? HTTPURLResponse)?.statusCode == 200, let routes = RouteListing.list(from: data) else {
            throw Failure(description: "GET /__mockapi/routes did not answer with the route table")
        }
        return routes
    }

    /// Throws ``Refused`` when the answer is the admin guard's 403.
    private func refusal(_ request: String, _ response: URLResponse, _ body: Data) throws {
        guard (response as? HTTPURLResponse)?.statusCode == 403 else { return }
        let said = (try? JSONParser.parse(Array(body)))?.objectValue?["error"]?.stringValue
        throw Refused(request: request, said: said, tokenGiven: token != nil)
    }

    private var sessionItems: [URLQueryItem] {
        session.map { [URLQueryItem(name: "session", value: $0)] } ?? []
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
