extension Responder {
    /// On every journal answer: the newest id recorded when it was read, where a reader that
    /// pages with `?since=` starts (`?limit=0` asks for it alone).
    package static let journalLastIDHeader = "Mockapi-Journal-Last-Id"

    /// An admin endpoint's answer: a whole response, or the journal entries a query asks for,
    /// which the server streams page by page instead of rendering them all at once.
    ///
    /// Why indirect: inline, the cases' payloads differ in size and the tag lives in the spare
    /// bits of a word that the `.response` case never writes whole; reading the tag then branched
    /// on uninitialised bits (valgrind, on every `GET /__mockapi/requests/count`). Boxed, each case
    /// is one pointer written whole; an allocation per admin request is nothing.
    package indirect enum AdminAnswer: Sendable {
        case response(GeneratedResponse)
        /// `lastID` was read before any entry, so a reader paging with `since` never skips one
        /// recorded meanwhile. `session`: whose journal (`?session=ID`), nil for the server's.
        case journal(JournalQuery, lastID: Int, session: SessionState?)
        /// `POST /__mockapi/reload`: the server reloads its files and answers with the outcome.
        case reload
    }

    /// Answers `/__mockapi/…`: the journal (and its count), scenario resets and the route table.
    package func respondAdmin(
        method: String, path: String, query: [QueryArgument] = [],
        headers: HeaderFields = []
    ) -> AdminAnswer {
        if let refusal = adminAccess.refusal(method: method, headers: headers) { return .response(refusal) }
        if method == "POST", path == "/__mockapi/reload" { return .reload }
        if let answer = respondSessionAdmin(method: method, path: path, headers: headers) { return .response(answer) }
        // `?session=ID` points the journal and scenario endpoints at that session's own.
        let session: SessionState?
        let arguments: [QueryArgument]
        switch sessionArgument(query) {
        case .refused(let response): return .response(response)
        case .found(let found, let rest): (session, arguments) = (found, rest)
        }
        guard method == "GET", path == "/__mockapi/requests" || path == "/__mockapi/requests/count" else {
            return .response(respondOtherAdmin(method: method, path: path, session: session))
        }
        let journal = session?.journal ?? self.journal
        let lastID = journal.lastID
        let journalQuery: JournalQuery
        do { journalQuery = try JournalQuery(pairs: arguments) } catch {
            return .response(GeneratedResponse(status: 400, json: ["error": .string("GET \(path): \(error.message)")]))
        }
        if path == "/__mockapi/requests/count" {
            return .response(
                GeneratedResponse(
                    status: 200, json: ["count": .int(journal.entries(matching: journalQuery).count)],
                    headers: [HTTPField(Self.journalLastIDHeader, String(lastID))]))
        }
        return .journal(journalQuery, lastID: lastID, session: session)
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
