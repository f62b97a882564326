#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// Literal children: bytes and node, compared directly while there are few; past
        /// `literalIndexThreshold` also indexed by a dictionary, whose hashing costs more than a
        /// few byte compares.
        var literalKeys: [[UInt8]] = []
        var literalNodes: [Int] = []
        var literalIndex: [String: Int]?
        var intParameter: Int?
        var stringParameter: Int?
        /// Contract index per method, for templates that end here.
        var methods: [(method: HTTPMethod, contract: Int)] = []
    }

    private static let literalIndexThreshold = 8
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
            case .literal(let text): next = literalChild(of: current, Array(text.utf8))
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
            case .literal(let text): addLiteral(text, child: created, to: current)
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

    private mutating func addLiteral(_ text: String, child: Int, to parent: Int) {
        nodes[parent].literalKeys.append(Array(text.utf8))
        nodes[parent].literalNodes.append(child)
        if nodes[parent].literalIndex != nil {
            nodes[parent].literalIndex![text] = child
        } else if nodes[parent].literalKeys.count > Self.literalIndexThreshold {
            nodes[parent].literalIndex = Dictionary(uniqueKeysWithValues: zip(
                nodes[parent].literalKeys.map { String(decoding: $0, as: UTF8.self) }, nodes[parent].literalNodes))
        }
    }

    private func literalChild(of parent: Int, _ segment: [UInt8]) -> Int? {
        segment.withUnsafeBufferPointer { literalChild(of: parent, $0) }
    }

    private func literalChild(of parent: Int, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        if let index = nodes[parent].literalIndex { return index[String(decoding: segment, as: UTF8.self)] }
        let keys = nodes[parent].literalKeys
        for position in keys.indices where keys[position].count == segment.count {
            let same = keys[position].withUnsafeBufferPointer { key in
                segment.isEmpty || memcmp(key.baseAddress!, segment.baseAddress!, segment.count) == 0
            }
            if same { return nodes[parent].literalNodes[position] }
        }
        return nil
    }

    /// Matches a request path (no query, already percent-decoded) for a method.
    /// A `HEAD` request falls back to the `GET` contract when there is no `HEAD` one.
    public func match(method: HTTPMethod, path: String) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return .notFound }
            // Segment boundaries as byte ranges: no substrings, no per-segment allocation.
            var segments: [Range<Int>] = []
            segments.reserveCapacity(8)
            if bytes.count > 1 {
                var start = 1
                for index in 1..<bytes.count where bytes[index] == UInt8(ascii: "/") {
                    segments.append(start..<index)
                    start = index + 1
                }
                segments.append(start..<bytes.count)
            }
            var allowed: [HTTPMethod] = []
            if let contract = search(node: 0, depth: 0, bytes: bytes, segments: segments, method: method, allowed: &allowed) {
                return .found(contract: contract)
            }
            if method == .HEAD, allowed.contains(.GET),
               let contract = search(node: 0, depth: 0, bytes: bytes, segments: segments, method: .GET, allowed: &allowed) {
                return .found(contract: contract)
            }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: Array(Set(allowed)).sorted())
        }
    }

    private func search(node index: Int, depth: Int, bytes: UnsafeBufferPointer<UInt8>, segments: [Range<Int>],
                        method: HTTPMethod, allowed: inout [HTTPMethod]) -> Int? {
        guard depth < segments.count else {
            for entry in nodes[index].methods where entry.method == method { return entry.contract }
            allowed += nodes[index].methods.map(\.method)
            return nil
        }
        let segment = UnsafeBufferPointer(rebasing: bytes[segments[depth]])
        if let next = literalChild(of: index, segment),
           let hit = search(node: next, depth: depth + 1, bytes: bytes, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        if let next = nodes[index].intParameter, PathTemplate.ParameterType.isInteger(segment),
           let hit = search(node: next, depth: depth + 1, bytes: bytes, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        if let next = nodes[index].stringParameter, !segment.isEmpty,
           let hit = search(node: next, depth: depth + 1, bytes: bytes, segments: segments, method: method, allowed: &allowed) {
            return hit
        }
        return nil
    }
}
