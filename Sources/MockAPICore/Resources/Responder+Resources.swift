/// Resource operations: a contract with a `resource` answers its default response from the
/// store instead of the fixture. The request has passed its contract by then, so a refused
/// request changes nothing; a write that would change a stored item's shape is refused too.
extension Responder {
    /// The answer, and the response it stands for (nil for a refusal of mockapi's own), when the
    /// request reached contract `index`'s default response and that contract is a resource operation.
    package func resourceAnswer(
        contract index: Int, response: Int, path: UnsafeBufferPointer<UInt8>, body: IncomingRequest.Body, store: ResourceStore
    ) -> (answer: GeneratedResponse, response: Int?)? {
        guard let (resourceIndex, operation) = set.resources.operation(of: index), response == set.contracts[index].defaultResponseIndex else { return nil }
        let resource = set.resources.resources[resourceIndex]
        let segments = String(decoding: path, as: UTF8.self).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let key = resource.name + " /" + segments.prefix(resource.collectionDepth).joined(separator: "/")
        let id = segments.count > resource.collectionDepth ? String(segments.last!) : nil
        let outcome =
            store.withCollection(key, seed: resource.seed, idKey: resource.idKey) { collection in
                ResourceOperation(resource: resource, id: id, body: Self.object(of: body)).perform(operation, on: &collection)
            } ?? .full("the server keeps at most \(ResourceStore.maxCollections) collections: DELETE /__mockapi/scenarios empties them")
        return answer(outcome, contract: index, response: response, resource: resource)
    }

    private static func object(of body: IncomingRequest.Body) -> JSONValue? {
        switch body {
        case .json(let value): value
        case .form(let fields): .object(JSONObject(fields.map { ($0.name, .string($0.value ?? "")) }))
        default: nil
        }
    }

    private func answer(
        _ outcome: ResourceOperation.Outcome, contract index: Int, response: Int, resource: ResourceTable.Resource
    ) -> (answer: GeneratedResponse, response: Int?) {
        let contract = set.contracts[index]
        let chosen = contract.responses[response]
        let named = [HTTPField(Self.contractHeader, contract.name)]
        switch outcome {
        case .body(let json):
            return (GeneratedResponse(status: chosen.status, json: json, headers: chosen.headers + named), response)
        case .removed:
            return (GeneratedResponse(status: chosen.status, contentType: chosen.contentType ?? "", body: chosen.body, headers: chosen.headers + named), response)
        case .notFound(let id):
            let detail = "no \(resource.name) item has \(resource.idKey) \(id)"
            if let declared = contract.responses.firstIndex(where: { $0.status == 404 }) {
                let notFound = contract.responses[declared]
                return (
                    GeneratedResponse(
                        status: 404, contentType: notFound.contentType ?? "", body: notFound.body, headers: notFound.headers + named, problem: detail),
                    declared
                )
            }
            return (GeneratedResponse(status: 404, json: ProblemDocument(contract: contract.name, error: detail).json, headers: named, problem: detail), nil)
        case .invalid(let violations):
            return (ErrorResponses.contractViolation(contract, index: index, set: set, violations: violations), nil)
        case .full(let detail):
            let body = ProblemDocument(title: "resource full", status: 503, detail: detail, contract: contract.name)
            return (GeneratedResponse(status: 503, contentType: ErrorResponses.problemType, json: body.json, headers: named + [HTTPField("Retry-After", "1")], problem: detail), nil)
        }
    }
}
