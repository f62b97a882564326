/// Picks which named response a matched, valid request gets.
///
/// Order: a `Prefer` header (`example=NAME` or `code=STATUS`), then the first response whose
/// `when` matches the query and JSON body, then the contract's sequence, then `default`.
public enum ResponseSelector {
    public static func select(for contract: Contract, index: Int, query: [(name: String, value: String?)], body: JSONValue? = nil,
                              prefer: String?, scenarios: ScenarioState) -> Result<Int, Violation> {
        if let prefer, let preference = Preference(prefer) {
            switch preference {
            case .example(let name):
                guard let chosen = contract.responseIndex(named: name) else {
                    return .failure(Violation("header.Prefer", "contract \"\(contract.name)\" has no response named \"\(name)\" (has: \(contract.responses.map(\.name).joined(separator: ", ")))"))
                }
                return .success(chosen)
            case .code(let status):
                guard let chosen = contract.responses.firstIndex(where: { $0.status == status }) else {
                    return .failure(Violation("header.Prefer", "contract \"\(contract.name)\" has no response with status \(status) (has: \(Set(contract.responses.map(\.status)).sorted().map(String.init).joined(separator: ", ")))"))
                }
                return .success(chosen)
            case .invalidCode(let value):
                return .failure(Violation("header.Prefer", "code=\(value) is not a status code; use a number such as code=404"))
            }
        }
        for (offset, response) in contract.responses.enumerated() {
            if let when = response.when, when.admits(query: query, body: body) {
                return .success(offset)
            }
        }
        if let sequence = contract.sequence {
            return .success(sequence[scenarios.advance(contract: index, length: sequence.count)])
        }
        return .success(contract.defaultResponseIndex)
    }

    /// The part of RFC 7240 `Prefer` that mock servers use (Prism's convention).
    enum Preference: Equatable {
        case example(String)
        case code(Int)
        /// `code=` with something that is not a number: refused, not ignored, so a typo shows.
        case invalidCode(String)

        init?(_ header: String) {
            for piece in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                guard pair.count == 2 else { continue }
                let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
                switch pair[0].lowercased() {
                case "example": self = .example(value); return
                case "code": self = Int(value).map { .code($0) } ?? .invalidCode(value); return
                default: continue
                }
            }
            return nil
        }
    }
}
