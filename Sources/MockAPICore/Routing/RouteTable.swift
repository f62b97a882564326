/// Finds the contract for a method and path with a segment trie, so matching costs the path's
/// length, not the number of contracts.
///
/// Precedence at each segment: literal, then `{name:int}`, then `{name}`, with backtracking, so
/// `/v1/users/self` wins over `/v1/users/{id:int}` and a deeper literal miss can still fall back
/// to a parameter.
public struct RouteTable: Sendable {
    public enum Match: Sendable, Equatable {
        case found(contract: Int)
        /// The path matches contracts, none for this method.
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    /// Two contracts with the same method and template shape: indexes into the contracts array.
    struct Conflict: Equatable {
        var first: Int
        var second: Int
    }

    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var intParameter: Int?
        var stringParameter: Int?
        /// Contract index per method, for templates that end here.
        var methods: [(method: HTTPMethod, contract: Int)] = []
    }

    private var nodes: [Node] = [Node()]
    private(set) var conflicts: [Conflict] = []
    public let count: Int

    public init(contracts: [Contract]) {
        count = contracts.count
        for (index, contract) in contracts.enumerated() { insert(contract.request, index: index) }
    }

    private mutating func insert(_ request: RequestExpectation, index: Int) {
        var current = 0
        for segment in request.path.segments {
            let next: Int?
            switch segment {
            case .literal(let text): next = nodes[current].literals[text]
            case .parameter(_, .int): next = nodes[current].intParameter
            case .parameter(_, .string): next = nodes[current].stringParameter
            }
            if let next {
                current = next
                continue
            }
            nodes.append(Node())
            let created = nodes.count - 1
            switch segment {
            case .literal(let text): nodes[current].literals[text] = created
            case .parameter(_, .int): nodes[current].intParameter = created
            case .parameter(_, .string): nodes[current].stringParameter = created
            }
            current = created
        }
        if let existing = nodes[current].methods.first(where: { $0.method == request.method }) {
            conflicts.append(Conflict(first: existing.contract, second: index))
        } else {
            nodes[current].methods.append((request.method, index))
        }
    }

    /// Matches a request path (no query, already percent-decoded) for a method.
    /// A `HEAD` request falls back to the `GET` contract when there is no `HEAD` one.
    public func match(method: HTTPMethod, path: String) -> Match {
        guard path.utf8.first == UInt8(ascii: "/") else { return .notFound }
        let segments = path == "/" ? [] : path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        var allowed: [HTTPMethod] = []
        if let contract = search(node: 0, depth: 0, segments: segments, method: method, allowed: &allowed) {
            return .found(contract: contract)
        }
        if method == .HEAD, allowed.contains(.GET),
           let contract = search(node: 0, depth: 0, segments: segments, method: .GET, allowed: &allowed) {
            return .found(contract: contract)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: Array(Set(allowed)).sorted())
    }

    private func search(node index: Int, depth: Int, segments: [Substring], method: HTTPMethod, allowed: inout [HTTPMethod]) -> Int? {
        let node = nodes[index]
        guard depth < segments.count else {
            if let hit = node.methods.first(where: { $0.method == method }) { return hit.contract }
            allowed += node.methods.map(\.method)
            return nil
        }
        let segment = segments[depth]
        if let next = node.literals[String(segment)],
           let hit = search(node: next, depth: depth + 1, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        if let next = node.intParameter, PathTemplate.ParameterType.int.accepts(segment),
           let hit = search(node: next, depth: depth + 1, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        if let next = node.stringParameter, !segment.isEmpty,
           let hit = search(node: next, depth: depth + 1, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        return nil
    }
}
