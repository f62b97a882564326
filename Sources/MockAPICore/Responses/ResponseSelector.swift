/// Picks which named response a matched, valid request gets.
///
/// Order: a `Prefer` header (`example=NAME` or `code=STATUS`), then the first response whose
/// `when` matches the query, body and body type, then the contract's sequence, then `default`.
package enum ResponseSelector {
    package static func select(
        for contract: Contract, index: Int, query: [QueryArgument], body: IncomingRequest.Body = .none, contentType: String? = nil,
        prefer: Prefer.Selection?, scenarios: ScenarioState
    ) -> Result<Int, Violation> {
        if let prefer {
            switch prefer {
            case .example(let name):
                guard let chosen = contract.responseIndex(named: name) else {
                    return .failure(Violation("header.Prefer", "contract \"\(contract.name)\" has no response named \"\(name)\" (has: \(contract.responses.map(\.name).joined(separator: ", ")))"))
                }
                return .success(chosen)
            case .code(let status):
                guard let chosen = contract.responses.firstIndex(where: { $0.status == status }) else {
                    return .failure(
                        Violation(
                            "header.Prefer",
                            "contract \"\(contract.name)\" has no response with status \(status) (has: \(Set(contract.responses.map(\.status)).sorted().map(String.init).joined(separator: ", ")))"))
                }
                return .success(chosen)
            case .invalidCode(let value):
                return .failure(Violation("header.Prefer", "code=\(value) is not a status code; use a number such as code=404"))
            }
        }
        for (offset, response) in contract.responses.enumerated() {
            if let when = response.when, when.admits(query: query, body: body, contentType: contentType) {
                return .success(offset)
            }
        }
        if let sequence = contract.sequence {
            return .success(sequence[scenarios.advance(contract: index, length: sequence.count)])
        }
        return .success(contract.defaultResponseIndex)
    }
}
