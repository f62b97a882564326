import Testing

@testable import MockAPICore

/// `enum`, nested `properties` and `items`, `repeated` query keys and several header prefixes,
/// from the contract JSON to the violations a request gets.
struct ValueConstraintTests {
    /// The one contract in a set made of `request` (the contract's `request` object).
    private func contract(_ request: String) throws -> Contract {
        let text = #"{"name": "c", "request": \#(request), "responses": {"default": {"status": 200, "body": {}}}}"#
        let folder = try TestFolder(contracts: ["c.json": text], fixtures: [:])
        return try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures).contracts[0]
    }

    private func violations(_ request: IncomingRequest, _ contract: Contract) -> [String] {
        RequestValidator.violations(of: request, against: contract.request).map(\.description)
    }

    @Test func nestedObjectsAndArrayElementsAreChecked() throws {
        let contract = try contract(
            #"""
            {"method": "POST", "path": "/backings", "json": {
              "backing": {"properties": {
                "amount": {"type": "string"},
                "status": {"enum": ["pledged", "canceled"]},
                "rewards": {"items": {"properties": {"id": {"type": "int"}, "qty": {"type": "int", "required": false}}}}
              }},
              "source": {"type": "string", "enum": ["ios", "android"]}
            }}
            """#)
        let good: JSONValue = ["backing": ["amount": "10.0", "status": "pledged", "rewards": [["id": 1], ["id": 2, "qty": 3]]], "source": "ios"]
        #expect(violations(IncomingRequest(contentType: "application/json", body: .json(good)), contract) == [])

        let bad: JSONValue = ["backing": ["amount": 10, "status": "refunded", "rewards": [["id": "1"], ["qty": 1, "note": "x"]]], "source": "web"]
        #expect(
            violations(IncomingRequest(contentType: "application/json", body: .json(bad)), contract) == [
                "body.backing.amount: expected string, found int",
                #"body.backing.status: "refunded" is not one of "pledged", "canceled""#,
                "body.backing.rewards[0].id: expected int, found string",
                "body.backing.rewards[1].id: required key is missing",
                "body.backing.rewards[1].note: unexpected key (the contract names: id, qty)",
                #"body.source: "web" is not one of "ios", "android""#,
            ])
    }

    @Test func queryEnumsAndRepeatedKeys() throws {
        let contract = try contract(
            #"""
            {"method": "GET", "path": "/friends", "query": {
              "sort": {"enum": ["magic", "newest"]},
              "count": {"type": "int", "enum": [0, 10, 20], "required": false},
              "page": {"type": "int", "repeated": true, "required": false}
            }}
            """#)
        #expect(violations(IncomingRequest(query: [QueryArgument("sort", "magic"), QueryArgument("count", "0"), QueryArgument("page", "2"), QueryArgument("page", "2")]), contract) == [])
        #expect(
            violations(IncomingRequest(query: [QueryArgument("sort", "oldest"), QueryArgument("count", "5"), QueryArgument("sort", "magic")]), contract) == [
                #"query.sort: "oldest" is not one of magic, newest"#,
                "query.sort: sent 2 times, expected once",
                #"query.count: "5" is not one of 0, 10, 20"#,
            ])
    }

    @Test func headerTakesOneOfSeveralPrefixesOrValues() throws {
        let contract = try contract(
            #"""
            {"method": "GET", "path": "/me", "headers": {
              "Authorization": {"prefix": ["token ", "Basic "]},
              "X-Platform": {"enum": ["ios", "android"], "required": false}
            }}
            """#)
        #expect(violations(IncomingRequest(headers: [("Authorization", "Basic dTpw")]), contract) == [])
        #expect(violations(IncomingRequest(headers: [("Authorization", "token abc"), ("X-Platform", "ios")]), contract) == [])
        #expect(
            violations(IncomingRequest(headers: [("Authorization", "Bearer abc"), ("X-Platform", "web")]), contract) == [
                #"header.Authorization: expected a value starting with "token " or "Basic ""#,
                #"header.X-Platform: "web" is not one of ios, android"#,
            ])
    }

    @Test func badConstraintsAreLoadErrorsWithTheirPath() throws {
        let folder = try TestFolder(
            contracts: [
                "c.json": #"""
                {"name": "c", "request": {"method": "POST", "path": "/x",
                  "query": {"n": {"type": "int", "enum": ["one"]}},
                  "headers": {"H": {"prefix": 3}},
                  "json": {"a": {"type": "string", "items": {"type": "int"}}, "b": {"enum": []}, "c": {"items": {"typo": 1}}}},
                 "responses": {"default": {"status": 200}}}
                """#
            ], fixtures: [:])
        #expect(throws: ContractSetError.self) { try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures) }
        do { _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures) } catch {
            #expect(
                error.problems.map(\.message) == [
                    #""one" is not a valid int"#,
                    "expected a string or an array of strings, found int",
                    #""items" describes an array, but "type" is "string""#,
                    "expected a non-empty array of allowed values, found []",
                    #"unknown key "typo" (did you mean "type"? allowed: type, nullable, enum, properties, otherKeys, items, minItems, format, oneOf, anyOf)"#,
                ])
            #expect(error.problems.first?.location == .jsonPath("$.request.query.n.enum"))
        }
    }
}
