import Testing

@testable import MockAPICore

struct ResponseSelectorTests {
    private func contract(sequence: [Int]? = nil) throws -> Contract {
        try Contract.make(
            responses: [
                ResponseDefinition(name: "default", status: 200, body: [], contentType: nil),
                ResponseDefinition(name: "not_found", status: 404, body: [], contentType: nil),
                ResponseDefinition(name: "unavailable", status: 503, body: [], contentType: nil),
                ResponseDefinition(name: "page2", status: 200, body: [], contentType: nil, when: RequestMatch(query: [("cursor", "2")])),
            ], sequence: sequence)
    }

    private func select(
        _ contract: Contract, query: [QueryArgument] = [], prefer: String? = nil,
        scenarios: ScenarioState = ScenarioState()
    ) -> String {
        switch ResponseSelector.select(for: contract, index: 0, query: query, prefer: Prefer(prefer).selection, scenarios: scenarios) {
        case .success(let index): contract.responses[index].name
        case .failure(let violation): violation.description
        }
    }

    @Test func defaultWhenNothingElseApplies() throws {
        #expect(select(try contract()) == "default")
    }

    @Test func preferPicksByNameOrByStatus() throws {
        let contract = try contract()
        #expect(select(contract, prefer: "example=not_found") == "not_found")
        #expect(select(contract, prefer: "code=503") == "unavailable")
        #expect(select(contract, prefer: #"return=minimal, example="not_found""#) == "not_found")
        #expect(select(contract, prefer: "example=nope") == #"header.Prefer: contract "c" has no response named "nope" (has: default, not_found, unavailable, page2)"#)
        #expect(select(contract, prefer: "code=418") == #"header.Prefer: contract "c" has no response with status 418 (has: 200, 404, 503)"#)
    }

    @Test func whenQueryMatchesPicksThatResponse() throws {
        #expect(select(try contract(), query: [QueryArgument("cursor", "2")]) == "page2")
        #expect(select(try contract(), query: [QueryArgument("cursor", "3")]) == "default")
    }

    @Test func sequenceAdvancesRepeatsItsLastStepAndResets() throws {
        let contract = try contract(sequence: [2, 2, 0])
        let scenarios = ScenarioState()
        let served = (0..<4).map { _ in select(contract, scenarios: scenarios) }
        #expect(served == ["unavailable", "unavailable", "default", "default"])
        scenarios.reset()
        #expect(select(contract, scenarios: scenarios) == "unavailable")
        #expect(select(contract, prefer: "example=default", scenarios: scenarios) == "default")
        #expect(select(contract, scenarios: scenarios) == "unavailable", "Prefer does not advance the sequence")
    }

    /// A `when` on the body's type tells a form from a JSON post; its `json` keys also hold for a
    /// form's fields (a number by its spelling), as `request.json` checks both.
    @Test func whenTellsBodyKindsAndFormFieldsApart() throws {
        let contract = try Contract.make(responses: [
            ResponseDefinition(name: "default", status: 200, body: [], contentType: nil),
            ResponseDefinition(name: "carol", status: 403, body: [], contentType: nil, when: RequestMatch(json: [("user", "carol")])),
            ResponseDefinition(name: "form", status: 400, body: [], contentType: nil, when: RequestMatch(contentType: MediaType.form)),
            ResponseDefinition(name: "second", status: 201, body: [], contentType: nil, when: RequestMatch(json: [("n", 2)])),
        ])
        func select(_ body: IncomingRequest.Body, _ type: String?) -> String {
            guard case .success(let index) = ResponseSelector.select(for: contract, index: 0, query: [], body: body, contentType: type, prefer: nil, scenarios: ScenarioState())
            else { return "refused" }
            return contract.responses[index].name
        }
        let form = "application/x-www-form-urlencoded; charset=utf-8"
        #expect(select(.form([QueryArgument("user", "carol")]), form) == "carol")
        #expect(select(.form([QueryArgument("user", "bob")]), form) == "form")
        #expect(select(.json(["user": "carol"]), "application/json") == "carol")
        #expect(select(.json(["n": 2]), "application/json") == "second")
        #expect(select(.form([QueryArgument("n", "2")]), "text/plain") == "second")
        #expect(select(.json(["n": "2"]), "application/json") == "default", "a JSON string is not the number")
        #expect(select(.multipart([]), "multipart/form-data; boundary=x") == "default")
        #expect(select(.none, nil) == "default")
    }
}
