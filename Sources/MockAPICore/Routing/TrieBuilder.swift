/// The trie while contracts are inserted: one node per distinct template prefix.
struct TrieBuilder {
    struct Node {
        var literals: [(key: [UInt8], child: Int)] = []
        /// Position in `literals` by key, so inserting 10,000 siblings is not quadratic.
        var literalPositions: [[UInt8]: Int] = [:]
        var intParameter: Int?
        var stringParameter: Int?
        var pathParameter: Int?
        /// Contract index per method, for templates that end here.
        var methods: [(method: RequestMethod, contract: Int)] = []
    }

    var nodes: [Node] = [Node()]
    var conflicts: [RouteTable.Conflict] = []
    var groups: [Int: [Int]] = [:]

    mutating func insert(_ request: RequestExpectation, index: Int, contracts: [Contract]) {
        var current = 0
        for segment in request.path.segments {
            switch segment {
            case .literal(let text):
                let key = Array(text.utf8)
                if let position = nodes[current].literalPositions[key] {
                    current = nodes[current].literals[position].child
                } else {
                    let created = addNode()
                    nodes[current].literalPositions[key] = nodes[current].literals.count
                    nodes[current].literals.append((key, created))
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
