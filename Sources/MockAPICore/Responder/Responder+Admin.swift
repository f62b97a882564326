extension Responder {
    /// On every journal answer: the newest id recorded when it was read, where a reader that
    /// pages with `?since=` starts (`?limit=0` asks for it alone).
    package static let journalLastIDHeader = "Mockapi-Journal-Last-Id"

    /// Answers `/__mockapi/…` past the probes and the command's own actions: the journal (and its
    /// count), scenario resets, the route table, sessions and reload. None is journaled. The
    /// journal is streamed page by page by the server (`Decision.Answer.journal`) instead of
    /// rendered all at once.
    func respondAdmin(method: String, path: String, query: [QueryArgument], headers: HeaderFields) -> Decision {
        if let refusal = adminAccess.refusal(method: method, headers: headers) { return adminAnswer(refusal) }
        if method == "POST", path == "/__mockapi/reload" {
            guard policy.canReload else {
                return adminAnswer(GeneratedResponse(status: 409, json: ["error": "this server was started from a contract set in memory: there are no files to reload"]))
            }
            return decision(.adminAction(.reload), journal: nil)
        }
        if let answer = respondSessionAdmin(method: method, path: path, headers: headers) { return adminAnswer(answer) }
        // `?session=ID` points the journal and scenario endpoints at that session's own.
        let session: SessionState?
        let arguments: [QueryArgument]
        switch sessionArgument(query) {
        case .refused(let response): return adminAnswer(response)
        case .found(let found, let rest): (session, arguments) = (found, rest)
        }
        guard method == "GET", path == "/__mockapi/requests" || path == "/__mockapi/requests/count" else {
            return adminAnswer(respondOtherAdmin(method: method, path: path, session: session))
        }
        let journal = session?.journal ?? self.journal
        // Read before any entry, so a reader paging with `since` never skips one recorded meanwhile.
        let lastID = journal.lastID
        let journalQuery: JournalQuery
        do { journalQuery = try JournalQuery(pairs: arguments) } catch {
            return adminAnswer(GeneratedResponse(status: 400, json: ["error": .string("GET \(path): \(error.message)")]))
        }
        if path == "/__mockapi/requests/count" {
            return adminAnswer(
                GeneratedResponse(
                    status: 200, json: ["count": .int(journal.entries(matching: journalQuery).count)],
                    headers: [HTTPField(Self.journalLastIDHeader, String(lastID))]))
        }
        return decision(.journal(journalQuery, lastID: lastID, session: session), journal: nil)
    }

    /// An admin endpoint's whole response, not journaled.
    private func adminAnswer(_ response: GeneratedResponse) -> Decision {
        decision(.generated(response), journal: nil)
    }

    private func respondOtherAdmin(method: String, path: String, session: SessionState?) -> GeneratedResponse {
        switch (method, path) {
        case ("DELETE", "/__mockapi/requests"):
            (session?.journal ?? journal).reset()
            return GeneratedResponse(status: 200, json: Self.resetAnswer("requests", session))
        case ("DELETE", "/__mockapi/scenarios"):
            (session?.scenarios ?? scenarios).reset()
            (session?.resources ?? resourceStore).reset()
            return GeneratedResponse(status: 200, json: Self.resetAnswer("scenarios", session))
        case ("GET", "/__mockapi/routes"):
            return GeneratedResponse(status: 200, json: .array(RouteListing.all(in: set).map(\.json)))
        default:
            return GeneratedResponse(
                status: 404,
                json: [
                    "error": .string("no admin endpoint \(method) \(path)"),
                    "endpoints": [
                        "GET /__mockapi/requests", "GET /__mockapi/requests/count", "DELETE /__mockapi/requests",
                        "DELETE /__mockapi/scenarios", "GET /__mockapi/routes", "POST /__mockapi/reload",
                        "GET /__mockapi/health", "GET /__mockapi/ready", "POST /__mockapi/sessions", "GET /__mockapi/sessions",
                        "PUT /__mockapi/sessions/ID", "GET /__mockapi/sessions/ID", "DELETE /__mockapi/sessions/ID", "POST /__mockapi/sessions/ID/reset",
                    ],
                ])
        }
    }
}

extension Responder {
    /// `{"reset": "requests"}`, with `"session": ID` when it was one session's.
    fileprivate static func resetAnswer(_ what: String, _ session: SessionState?) -> JSONValue {
        guard let session else { return ["reset": .string(what)] }
        return ["reset": .string(what), "session": .string(session.id)]
    }
}
