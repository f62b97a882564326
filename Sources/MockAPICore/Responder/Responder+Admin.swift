extension Responder {
    /// On every journal answer: the newest id recorded when it was read, where a reader that
    /// pages with `?since=` starts (`?limit=0` asks for it alone).
    public static let journalLastIDHeader = "Mockapi-Journal-Last-Id"

    /// Answers `/__mockapi/…`: the journal, scenario resets and the route table.
    public func respondAdmin(method: String, path: String, query: [(name: String, value: String?)] = [],
                             headers: HeaderFields = []) -> GeneratedResponse {
        if let refusal = adminAccess.refusal(headers: headers) { return refusal }
        switch (method, path) {
        case ("GET", "/__mockapi/requests"):
            // Read before the entries, so a reader paging with `since` never skips one recorded meanwhile.
            let lastID = journal.lastID
            let journalQuery: JournalQuery
            do { journalQuery = try JournalQuery(pairs: query) } catch {
                return GeneratedResponse(status: 400, json: ["error": .string("GET /__mockapi/requests: \(error.message)")])
            }
            return GeneratedResponse(status: 200, json: .array(journal.entries(matching: journalQuery).map(\.json)),
                                     headers: [(Self.journalLastIDHeader, String(lastID))])
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
