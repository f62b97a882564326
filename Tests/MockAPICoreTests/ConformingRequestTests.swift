import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `ConformingRequest`: from a contract alone, a request the contract's own validation accepts,
/// every made-up value named; from `request.example`, the example's values and no guesses.
@Suite struct ConformingRequestTests {
    static let contracts = [
        "update.json": #"""
        {"name": "update", "request": {"method": "PUT", "path": "/v1/projects/{projectId:int}/notes/{slug}",
          "query": {"mode": {"type": "string", "enum": ["fast", "slow"]}, "page": {"type": "int", "required": false}},
          "headers": {"Authorization": {"prefix": "token "}},
          "json": {"amount": {"type": "number"}, "note": {"type": "string", "required": false}}},
         "responses": {"default": {"status": 200, "body": {}}}}
        """#,
        "example.json": #"""
        {"name": "example", "request": {"method": "PUT", "path": "/v1/projects/{projectId:int}/drafts/{slug}",
          "headers": {"Authorization": {"prefix": "token "}}, "json": {"amount": {"type": "number"}},
          "example": {"path": {"projectId": 42, "slug": "a b"}, "headers": {"Authorization": "token real"}, "json": {"amount": 45}}},
         "responses": {"default": {"status": 200, "body": {}}}}
        """#,
    ]

    private func contract(_ name: String) throws -> Contract {
        let folder = try TemporaryContractSet(contracts: Self.contracts)
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        return try #require(set.contracts.first { $0.name == name })
    }

    @Test func aContractAloneGivesARequestItsValidationAccepts() throws {
        let contract = try contract("update")
        let request = ConformingRequest(contract: contract)

        #expect(request.method == .PUT)
        #expect(request.target == "/v1/projects/1/notes/example?mode=fast")
        #expect(request.headers == [HTTPField("Authorization", "token example"), HTTPField("Content-Type", "application/json")])
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"amount":1.5}"#)
        #expect(
            request.guesses == [
                "path projectId = 1", "path slug = example", "query mode = fast",
                "header Authorization = token example (pass a real one with --header)", "JSON body made from the contract's keys",
            ])
        #expect(request.missingSecrets.isEmpty)

        var headers = HeaderFields()
        for header in request.headers { headers.append(name: header.name, value: header.value) }
        let incoming = IncomingRequest(
            query: request.query.map { QueryArgument($0.name, $0.value) }, headers: headers, contentType: "application/json",
            body: .json(try JSONParser.parse(try #require(request.body))))
        #expect(RequestValidator.violations(of: incoming, against: contract.request).isEmpty)
    }

    @Test func anExampleIsSentAsWrittenAndAGivenHeaderWins() throws {
        let request = ConformingRequest(contract: try contract("example"), headers: [HTTPField("authorization", "token given")])

        #expect(request.target == "/v1/projects/42/drafts/a%20b", "a path value percent-encoded")
        #expect(request.headers == [HTTPField("authorization", "token given"), HTTPField("Content-Type", "application/json")])
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"amount":45}"#)
        #expect(request.guesses.isEmpty)
    }
}
