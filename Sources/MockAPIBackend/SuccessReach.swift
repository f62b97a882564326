import Foundation
import MockAPICore

/// Whether `verify-backend` reached the answer it meant to check, and where to find an id that
/// reaches it. A 404 the contract declares is no pass for a request the mock answers 200: the
/// success answer, its body and its drifts, went unchecked (issue 27, item 7).
enum SuccessReach {
    /// The response the mock gives this request: the first whose `when` it keeps, else the
    /// sequence's first, else `default` (as `ResponseSelector` picks, without a `Prefer` header).
    static func intended(_ contract: Contract, for request: BackendRequest) -> ResponseDefinition {
        let query = request.conforming.query.map { QueryArgument($0.name, $0.value) }
        let body = request.body.flatMap { try? JSONParser.parse(Array($0)) }
        if let chosen = contract.responses.first(where: { $0.when?.admits(query: query, body: body) == true }) { return chosen }
        if let first = contract.sequence?.first { return contract.responses[first] }
        return contract.responses[contract.defaultResponseIndex]
    }

    /// A declared error status where the mock answers with a success.
    static func missed(_ intended: ResponseDefinition, status: Int, in contract: Contract) -> Bool {
        (200..<300).contains(intended.status) && !(200..<300).contains(status) && contract.responses.contains { $0.status == status }
    }

    /// The path's last parameter: the id a list of the collection above it can supply.
    static func lastParameter(of contract: Contract) -> (index: Int, name: String)? {
        for (index, segment) in contract.request.path.segments.enumerated().reversed() {
            if case .parameter(let name, _) = segment { return (index, name) }
        }
        return nil
    }

    /// A `GET` contract of the set for the collection the parameter at `index` names an item of
    /// (`GET /projects` for `/projects/{projectId}/rewards`), with its parameters named by the
    /// item's: list parameter name → the item's parameter name at the same place.
    static func list(above index: Int, of contract: Contract, in set: ContractSet) -> (contract: Contract, parameters: [String: String])? {
        let wanted = Array(contract.request.path.segments[..<index])
        for candidate in set.contracts where candidate.request.method == .GET && candidate !== contract {
            let segments = candidate.request.path.segments
            guard segments.count == wanted.count else { continue }
            var parameters: [String: String] = [:]
            let same = zip(segments, wanted).allSatisfy { pair in
                switch pair {
                case (.literal(let a), .literal(let b)): return a == b
                case (.parameter(let listName, _), .parameter(let itemName, _)):
                    parameters[listName] = itemName
                    return true
                default: return false
                }
            }
            if same { return (candidate, parameters) }
        }
        return nil
    }

    /// The id under the parameter's own name, or `id`, in a JSON object.
    static func id(in object: JSONValue?, parameter: String) -> String? {
        guard case .object(let members)? = object else { return nil }
        for key in [parameter, "id"] {
            switch members[key] {
            case .string(let text)?: return text
            case .int(let number)?: return String(number)
            default: continue
            }
        }
        return nil
    }

    /// The first item's id in a list answer: a top-level array, or the first array member of a
    /// top-level object (`{"data": [...]}`, `{"projects": [...]}`).
    static func firstID(inList body: Data, parameter: String) -> String? {
        guard let answer = try? JSONParser.parse(Array(body)) else { return nil }
        var lists: [[JSONValue]] = []
        switch answer {
        case .array(let items): lists = [items]
        case .object(let object):
            lists = object.members.compactMap { if case .array(let items) = $0.value { items } else { nil } }
        default: break
        }
        for items in lists {
            for item in items { if let found = id(in: item, parameter: parameter) { return found } }
        }
        return nil
    }
}
