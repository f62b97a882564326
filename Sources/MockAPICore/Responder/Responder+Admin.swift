extension Responder {
    /// Answers `/__mockapi/…`: the journal, scenario resets and the route table.
    public func respondAdmin(method: String, path: String) -> GeneratedResponse {
        switch (method, path) {
        case ("GET", "/__mockapi/requests"):
            return GeneratedResponse(status: 200, json: .array(journal.entries().map(\.json)))
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
