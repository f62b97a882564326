/// The trie while contracts are inserted: one node per distinct template prefix.
struct TrieBuilder {
    struct Node {
        var literals: [(key: [UInt8], child: Int)] = []
        /// Position in `literals` by key, so inserting 10,000 siblings is not quadratic; made
        /// only past `indexedLiterals` of them (most nodes have one or two, and a dictionary in
        /// every node cost about 40 M instructions of loading 10,000 contracts). Keyed by bytes,
        /// as requests are matched: two spellings of `é` are two literals.
        var literalPositions: [[UInt8]: Int]?
        var intParameter: Int?
        var stringParameter: Int?
        var pathParameter: Int?
        /// Contract index per method, for templates that end here.
        var methods: [(method: RequestMethod, contract: Int)] = []

        static let indexedLiterals = 8

        /// The child the literal segment `text` leads to, if any.
        func child(literal text: String) -> Int? {
            if let literalPositions { return literalPositions[Array(text.utf8)].map { literals[$0].child } }
            return literals.first { $0.key.elementsEqual(text.utf8) }?.child
        }

        mutating func add(literal text: String, child: Int) {
            literals.append((Array(text.utf8), child))
            if literalPositions != nil {
                literalPositions![literals[literals.count - 1].key] = literals.count - 1
            } else if literals.count > Self.indexedLiterals {
                literalPositions = Dictionary(uniqueKeysWithValues: literals.enumerated().map { ($1.key, $0) })
            }
        }
    }

    var nodes: [Node] = [Node()]
    var conflicts: [RouteTable.Conflict] = []
    var groups: [Int: [Int]] = [:]

    mutating func insert(_ request: RequestExpectation, index: Int, contracts: [Contract]) {
        var current = 0
        for segment in request.path.segments {
            switch segment {
            case .literal(let text):
                if let child = nodes[current].child(literal: text) {
                    current = child
                } else {
                    let created = addNode()
                    nodes[current].add(literal: text, child: created)
                    current = created
                }
            case .parameter(_, .int):
                let next = nodes[current].intParameter ?? addNode()
                nodes[current].intParameter = next
                current = next
            case .parameter(_, .string):
                let next = nodes[current].stringParameter ?? addNode()
                nodes[current].stringParameter = next
                current = next
            case .parameter(_, .path):
                let next = nodes[current].pathParameter ?? addNode()
                nodes[current].pathParameter = next
                current = next
            }
        }
        if let existing = nodes[current].methods.first(where: { $0.method == request.method }) {
            // Shared only when every contract there has a match of its own, all different.
            let members = groups[existing.contract] ?? [existing.contract]
            let clash = members.first { contracts[$0].request.match == nil || contracts[$0].request.match == request.match }
            if request.match != nil, clash == nil {
                groups[existing.contract] = members + [index]
            } else {
                conflicts.append(RouteTable.Conflict(first: clash ?? existing.contract, second: index))
            }
        } else {
            nodes[current].methods.append((request.method, index))
        }
    }

    private mutating func addNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }
}
