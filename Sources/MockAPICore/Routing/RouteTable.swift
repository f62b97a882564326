/// Finds the contract for a method and path with a segment trie, so matching costs the path's
/// length, not the number of contracts.
///
/// Precedence at each segment: literal, then `{name:int}`, then `{name}`, then `{name:path}`
/// (one or more segments, fewest first), with backtracking, so `/v1/users/self` wins over
/// `/v1/users/{id:int}` and a deeper literal miss can still fall back to a parameter.
///
/// The trie is built from nested arrays, then frozen into flat buffers (`FrozenTrie`) that a
/// match walks over the request's path bytes without allocating or retaining anything: this
/// runs on every request.
package struct RouteTable: Sendable {
    package enum Match: Sendable, Equatable {
        case found(contract: Int)
        /// The path matches contracts, none for this method.
        case methodNotAllowed(allowed: [RequestMethod])
        case notFound
    }

    /// Two contracts with the same method and template shape: indexes into the contracts array.
    struct Conflict: Equatable {
        var first: Int
        var second: Int
    }

    package let count: Int
    let conflicts: [Conflict]
    /// Contracts that share a method and template, told apart by their `match`: the trie finds
    /// the first (the key here), and the responder picks among all of them once the body is in.
    package let discriminated: [Int: [Int]]
    private let trie: FrozenTrie

    package init(contracts: [Contract]) {
        var builder = TrieBuilder()
        for (index, contract) in contracts.enumerated() { builder.insert(contract.request, index: index, contracts: contracts) }
        count = contracts.count
        conflicts = builder.conflicts
        discriminated = builder.groups
        trie = FrozenTrie(builder)
    }

    /// Matches a request path (no query, already percent-decoded) for a method.
    /// A `HEAD` request falls back to the `GET` contract when there is no `HEAD` one.
    package func match(method: RequestMethod, path: String) -> Match {
        var path = path
        return path.withUTF8 { match(method: method, path: $0) }
    }

    /// The same, over the path's bytes as the server received them.
    package func match(method: RequestMethod, path: UnsafeBufferPointer<UInt8>) -> Match {
        guard path.first == UInt8(ascii: "/") else { return .notFound }
        if let contract = trie.match(path: path, method: method) { return .found(contract: contract) }
        let first = path.count > 1 ? 1 : nil
        if method == .HEAD, let contract = trie.match(segmentStart: first, path: path, method: .GET) {
            return .found(contract: contract)
        }
        // A miss is rare and answered with an error, so collecting the allowed methods may allocate.
        var allowed: Set<RequestMethod> = []
        trie.collectMethods(node: 0, segmentStart: first, path: path, into: &allowed)
        if allowed.contains(.GET) { allowed.insert(.HEAD) } // served from the GET contract, as above
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed.sorted())
    }
}
