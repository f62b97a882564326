/// A response body its own `schema` does not allow: the fixture (or inline body) and the shape
/// disagree, so one of them is wrong. `lint` warns about each; `verify-backend` holds real
/// answers to the same shape.
package struct ShapeMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The fixture's path under the fixtures folder, or the contract file's `responses.NAME.body`.
    package var source: String
    /// `$.projects[0].state`
    package var jsonPath: String
    package var message: String

    package var description: String { "\(source): \(jsonPath): \(message)" }

    /// Every place a JSON body in `set` breaks its response's `schema`. A body that is not JSON
    /// (or carries placeholders where JSON needs a value) is not checked.
    package static func find(in set: ContractSet) -> [ShapeMismatch] {
        set.contracts.flatMap { contract in
            contract.responses.flatMap { response -> [ShapeMismatch] in
                guard let shape = response.shape, !response.body.isEmpty, let body = try? JSONParser.parse(response.body) else { return [] }
                let source = response.fixture.map { "\(set.fixturesDirectory)/\($0)" } ?? "\(set.contractsDirectory)/\(contract.file) responses.\(response.name).body"
                return violations(of: body, against: shape).map { ShapeMismatch(source: source, jsonPath: $0.location, message: $0.message) }
            }
        }
    }

    /// `body` against `shape`, each violation located by its JSON path from `$`.
    package static func violations(of body: JSONValue, against shape: JSONValueSchema) -> [Violation] {
        RequestValidator.valueViolations(body, shape, at: "$")
    }
}
