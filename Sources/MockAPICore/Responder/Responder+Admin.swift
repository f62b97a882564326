extension Responder {
    /// On every journal answer: the newest id recorded when it was read, where a reader that
    /// pages with `?since=` starts (`?limit=0` asks for it alone).
    public static let journalLastIDHeader = "Mockapi-Journal-Last-Id"

    /// Answers `/__mockapi/…`: the journal, scenario resets and the route table.
    /// An admin endpoint's answer: a whole response, or the journal entries a query asks for,
    /// which the server streams page by page instead of rendering them all at once.
    public enum AdminAnswer: Sendable {
        case response(GeneratedResponse)
        /// `lastID` was read before any entry, so a reader paging with `since` never skips one
        /// recorded meanwhile.
        case journal(JournalQuery, lastID: Int)
    }

    public func respondAdmin(method: String, path: String, query: [(name: String, value: String?)] = [],
                             headers: HeaderFields = []) -> AdminAnswer {
        if let refusal = adminAccess.refusal(headers: headers) { return .response(refusal) }
        if method == "GET", path == "/__mockapi/requests" {
            let lastID = journal.lastID
            do { return .journal(try JournalQuery(pairs: query), lastID: lastID) } catch {
                return .response(GeneratedResponse(status: 400, json: ["error": .string("GET /__mockapi/requests: \(error.message)")]))
            }
        }
        return .response(respondOtherAdmin(method: method, path: path))
    }

    private func respondOtherAdmin(method: String, path: String) -> GeneratedResponse {
        switch (method, path) {
        case ("DELETE", "/__mockapi/requests"):
            journal.reset()
            return GeneratedResponse(status: 200, json: ["reset": "requests"])
        case ("DELETE", "/__mockapi/scenarios"):
            scenarios.reset()
            return GeneratedResponse(status: 200, json: ["reset": "scenarios"])
        case ("GET", "/__mockapi/routes"):
            return GeneratedResponse(status: 200, json: .array(set.contracts.map { contract in
                [
                    "contract": .string(contract.name), "method": .string(contract.request.method.rawValue),
                    "path": .string(contract.request.path.text), "file": .string("\(set.contractsDirectory)/\(contract.file)"),
                    "responses": .array(contract.responses.map { .string($0.name) }),
                ]
            }))
        default:
            return GeneratedResponse(status: 404, json: [
                "error": .string("no admin endpoint \(method) \(path)"),
                "endpoints": ["GET /__mockapi/requests", "DELETE /__mockapi/requests", "DELETE /__mockapi/scenarios", "GET /__mockapi/routes"],
            ])
        }
    }
}
