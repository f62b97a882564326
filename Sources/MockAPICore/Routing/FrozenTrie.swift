import SystemLibc

/// The built trie in flat, immutable buffers, laid out like a C program would: nodes, literal
/// edges (sorted per node by length then bytes, for binary search), the edges' key bytes, the
/// methods that end at each node, and hash slots for nodes with many literal children.
final class FrozenTrie: @unchecked Sendable {
    struct Node {
        var firstEdge: Int32
        var edgeCount: Int32
        /// Open-addressing table of edge indexes (-1 empty) for a node with many literal
        /// children: a binary search over thousands of siblings missed the cache at every step.
        var firstSlot: Int32
        var slotCount: Int32 // 0: no table, search the edges
        var firstMethod: Int32
        var methodCount: Int32
        var intChild: Int32 // -1: none
        var stringChild: Int32 // -1: none
        var pathChild: Int32 // -1: none
    }

    struct Edge {
        var keyStart: Int32
        var keyLength: Int32
        var child: Int32
    }

    struct Ending {
        var method: RequestMethod
        var contract: Int32
    }

    /// Past this many literal children a node gets a hash table: hashing a short segment costs
    /// less than three steps of a binary search, each a call to memcmp.
    private static let hashedChildren = 4

    // Written once in init, then only read, from any thread: hence @unchecked Sendable.
    private let nodes: UnsafeMutableBufferPointer<Node>
    private let edges: UnsafeMutableBufferPointer<Edge>
    private let keys: UnsafeMutableBufferPointer<UInt8>
    private let endings: UnsafeMutableBufferPointer<Ending>
    private let slots: UnsafeMutableBufferPointer<Int32>
    /// Every path made of literal segments only, with each method the trie answers for it there
    /// (`ExactPaths`): most requests name such a path, and one hash probe answers them without
    /// walking the trie segment by segment.
    private var exact = ExactPaths()
    /// Every path of literal segments and `{name:int}` parameters, by its shape
    /// (`IntShapedPaths`): a request to a resource by its id answered by one probe too.
    private var shapes = IntShapedPaths()

    init(_ builder: TrieBuilder) {
        var nodes: [Node] = []
        var edges: [Edge] = []
        var keys: [UInt8] = []
        var endings: [Ending] = []
        var slots: [Int32] = []
        nodes.reserveCapacity(builder.nodes.count)
        for node in builder.nodes {
            let sorted = node.literals.count < 2 ? node.literals : node.literals.sorted { Self.precedes($0.key, $1.key) }
            let firstEdge = edges.count
            var slotCount = 0
            if sorted.count > Self.hashedChildren {
                slotCount = 1
                while slotCount < 2 * sorted.count { slotCount *= 2 }
            }
            let firstSlot = slots.count
            slots += repeatElement(-1, count: slotCount)
            for (offset, literal) in sorted.enumerated() {
                edges.append(Edge(keyStart: Int32(keys.count), keyLength: Int32(literal.key.count), child: Int32(literal.child)))
                keys += literal.key
                guard slotCount > 0 else { continue }
                var slot = literal.key.withUnsafeBufferPointer { Self.hash($0) } & (slotCount - 1)
                while slots[firstSlot + slot] >= 0 { slot = (slot + 1) & (slotCount - 1) }
                slots[firstSlot + slot] = Int32(firstEdge + offset)
            }
            nodes.append(
                Node(
                    firstEdge: Int32(firstEdge), edgeCount: Int32(sorted.count),
                    firstSlot: Int32(firstSlot), slotCount: Int32(slotCount),
                    firstMethod: Int32(endings.count), methodCount: Int32(node.methods.count),
                    intChild: Int32(node.intParameter ?? -1), stringChild: Int32(node.stringParameter ?? -1),
                    pathChild: Int32(node.pathParameter ?? -1)))
            for ending in node.methods { endings.append(Ending(method: ending.method, contract: Int32(ending.contract))) }
        }
        self.nodes = Self.copy(nodes)
        self.edges = Self.copy(edges)
        self.keys = Self.copy(keys)
        self.endings = Self.copy(endings)
        self.slots = Self.copy(slots)
        exact.deallocate() // the empty table it held until the trie could answer
        exact = ExactPaths(literalPathsOf: self)
        shapes = IntShapedPaths(of: self)
    }

    deinit {
        exact.deallocate()
        shapes.deallocate()
        nodes.deallocate()
        edges.deallocate()
        keys.deallocate()
        endings.deallocate()
        slots.deallocate()
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x100_0000_01b3

    /// FNV-1a: a few instructions per byte, and path segments are short. `walk` computes the
    /// same in its scan for the segment's end.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash = fnvOffset
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* fnvPrime }
        return Int(truncatingIfNeeded: hash & 0x7fff_ffff)
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// Edge order: shorter keys first, then bytewise, the order `compare` searches in.
    private static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.count != rhs.count ? lhs.count < rhs.count : lhs.lexicographicallyPrecedes(rhs)
    }

    /// The segment starting at `start`, and where the next one starts (nil after the last).
    @inline(__always)
    private func segment(at start: Int, in path: UnsafeBufferPointer<UInt8>) -> (UnsafeBufferPointer<UInt8>, next: Int?) {
        var end = start
        while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
        return (UnsafeBufferPointer(rebasing: path[start..<end]), end < path.count ? end + 1 : nil)
    }

    /// The contract for `method` at `path` from the root, `segmentStart` its first segment (nil
    /// for `/`). Most paths never need backtracking, so a straight walk that takes the first
    /// child in precedence order at each segment answers first; only when it fails after passing
    /// over another child that could match (or meets a `{name:path}` child) does the full search run.
    func match(segmentStart: Int?, path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        walked(segmentStart: segmentStart, path: path, method: method)
    }

    /// `match` for a whole path (`/` first, its first segment at 1, or none for `/` itself): a
    /// path of literal segments the trie has is answered from `exact`, one with integer
    /// parameters from `shapes`, the rest are walked.
    @inline(__always)
    func match(path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        if exact.mayHold(path), let contract = exact.contract(path: path, method: method) { return contract }
        if let contract = shapes.contract(path: path, method: method) { return contract }
        return walked(segmentStart: path.count > 1 ? 1 : nil, path: path, method: method)
    }

    /// What a walk, or the full search after it, finds: the answer `exact` was built from.
    private func walked(segmentStart: Int?, path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        switch walk(segmentStart: segmentStart, path: path, method: method) {
        case .found(let contract): return contract
        case .missing: return nil
        case .undecided: return search(node: 0, segmentStart: segmentStart, path: path, method: method)
        }
    }

    private enum Walk {
        case found(Int)
        /// No child was passed over: backtracking would find nothing either.
        case missing
        case undecided
    }

    /// The straight walk: one loop over the path's bytes, no recursion, no call per edge.
    @inline(__always)
    private func walk(segmentStart: Int?, path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Walk {
        guard let base = path.baseAddress else { return .undecided }
        let end = path.count
        var passedOver = false
        var node = nodes.baseAddress!
        var start = segmentStart ?? end + 1
        while start <= end {
            let here = node.pointee
            // Literal, then {name:int}, then {name}, as `search` tries them. A literal is compared
            // in place, so the segment's end is looked for only when a parameter takes it.
            var next = -1
            var stop = -1
            if here.slotCount > 0 {
                stop = start
                var hash = Self.fnvOffset
                while stop < end, base[stop] != UInt8(ascii: "/") {
                    hash = (hash ^ UInt64(base[stop])) &* Self.fnvPrime
                    stop += 1
                }
                let segment = UnsafeBufferPointer(start: base + start, count: stop - start)
                next = hashedChild(of: here, segment, hash: Int(truncatingIfNeeded: hash & 0x7fff_ffff)) ?? -1
            } else if here.edgeCount > 0 {
                (next, stop) = literalChild(of: here, at: start, in: base, end: end)
            }
            if next >= 0 {
                passedOver = passedOver || here.intChild >= 0 || here.stringChild >= 0 || here.pathChild >= 0
            } else {
                if stop < 0 {
                    stop = start
                    while stop < end, base[stop] != UInt8(ascii: "/") { stop += 1 }
                }
                let segment = UnsafeBufferPointer(start: base + start, count: stop - start)
                if here.intChild >= 0, Self.isInteger(segment) {
                    next = Int(here.intChild)
                    passedOver = passedOver || here.stringChild >= 0 || here.pathChild >= 0
                } else if here.pathChild >= 0 {
                    return .undecided // how many segments it takes is the full search's to try
                } else if here.stringChild >= 0, !segment.isEmpty {
                    next = Int(here.stringChild)
                } else {
                    return passedOver ? .undecided : .missing
                }
            }
            node = nodes.baseAddress! + next
            start = stop + 1
        }
        let first = Int(node.pointee.firstMethod)
        for position in first..<first + Int(node.pointee.methodCount) where endings[position].method == method {
            return .found(Int(endings[position].contract))
        }
        return passedOver ? .undecided : .missing
    }

    /// The literal child whose key is the whole segment starting at `start` (followed by `/` or
    /// the path's end), and where that segment ends; (-1, -1) when none is. For a node with few
    /// literal children: each key is compared in place, most failing at their first byte.
    @inline(__always)
    private func literalChild(of node: Node, at start: Int, in path: UnsafePointer<UInt8>, end: Int) -> (child: Int, stop: Int) {
        let available = end - start
        for index in Int(node.firstEdge)..<Int(node.firstEdge + node.edgeCount) {
            let edge = edges[index]
            let length = Int(edge.keyLength)
            guard length <= available, length == available || path[start + length] == UInt8(ascii: "/") else { continue }
            if Self.equal(keys.baseAddress! + Int(edge.keyStart), path + start, count: length) {
                return (Int(edge.child), start + length)
            }
        }
        return (-1, -1)
    }
    /// `PathTemplate.ParameterType.isInteger`, with the common case in line: up to 18 digits
    /// always fit an Int64.
    @inline(__always)
    private static func isInteger(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count > 0, segment.count <= 18 else { return PathTemplate.ParameterType.isInteger(segment) }
        for byte in segment where byte &- UInt8(ascii: "0") > 9 { return PathTemplate.ParameterType.isInteger(segment) }
        return true
    }

    /// The contract for `method` below `node`, trying literal, int and string children in that order.
    func search(node index: Int, segmentStart: Int?, path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        let node = nodes[index]
        guard let start = segmentStart else {
            for position in Int(node.firstMethod)..<Int(node.firstMethod + node.methodCount) where endings[position].method == method {
                return Int(endings[position].contract)
            }
            return nil
        }
        let (segment, next) = self.segment(at: start, in: path)
        if let child = literalChild(of: node, segment),
            let hit = search(node: child, segmentStart: next, path: path, method: method)
        {
            return hit
        }
        if node.intChild >= 0, PathTemplate.ParameterType.isInteger(segment),
            let hit = search(node: Int(node.intChild), segmentStart: next, path: path, method: method)
        {
            return hit
        }
        if node.stringChild >= 0, !segment.isEmpty,
            let hit = search(node: Int(node.stringChild), segmentStart: next, path: path, method: method)
        {
            return hit
        }
        if node.pathChild >= 0, !segment.isEmpty {
            var after = next
            while true {
                if let hit = search(node: Int(node.pathChild), segmentStart: after, path: path, method: method) { return hit }
                guard let start = after else { return nil }
                after = self.segment(at: start, in: path).next
            }
        }
        return nil
    }

    /// Each path of literal segments only that ends at a node with methods, as a request would
    /// send it (`/` and the keys joined by `/`), with those methods: what `ExactPaths` is built from.
    func literalPaths() -> [(path: [UInt8], methods: [RequestMethod])] {
        var found: [(path: [UInt8], methods: [RequestMethod])] = []
        var pending: [(node: Int, path: [UInt8])] = [(0, [UInt8(ascii: "/")])]
        while let (index, path) = pending.popLast() {
            let node = nodes[index]
            if node.methodCount > 0 {
                found.append((path, (Int(node.firstMethod)..<Int(node.firstMethod + node.methodCount)).map { endings[$0].method }))
            }
            for edge in edges[Int(node.firstEdge)..<Int(node.firstEdge + node.edgeCount)] {
                let key = keys[Int(edge.keyStart)..<Int(edge.keyStart + edge.keyLength)]
                pending.append((Int(edge.child), index == 0 ? path + key : path + [UInt8(ascii: "/")] + key))
            }
        }
        return found
    }

    /// Each path of literal segments and at least one `{name:int}` that ends at a node with
    /// methods, as `literalPaths` writes them with each integer segment one NUL byte, with those
    /// methods: what `IntShapedPaths` is built from. Nil when a literal key is itself an integer
    /// (or holds a NUL): there a request's integer segment may take that literal, not the
    /// parameter, so its shape alone would not say what the trie answers.
    func intShapedPaths() -> [(shape: [UInt8], methods: [RequestMethod])]? {
        // Every node's edges (the buffers hold one element more than that when they are empty).
        for node in nodes {
            for edge in edges[Int(node.firstEdge)..<Int(node.firstEdge + node.edgeCount)] {
                let key = UnsafeBufferPointer(start: keys.baseAddress! + Int(edge.keyStart), count: Int(edge.keyLength))
                if Self.isInteger(key) || key.contains(0) { return nil }
            }
        }
        var found: [(shape: [UInt8], methods: [RequestMethod])] = []
        var pending: [(node: Int, shape: [UInt8], integers: Int)] = [(0, [UInt8(ascii: "/")], 0)]
        while let (index, shape, integers) = pending.popLast() {
            let node = nodes[index]
            if node.methodCount > 0, integers > 0 {
                found.append((shape, (Int(node.firstMethod)..<Int(node.firstMethod + node.methodCount)).map { endings[$0].method }))
            }
            let separator: [UInt8] = index == 0 ? [] : [UInt8(ascii: "/")]
            for edge in edges[Int(node.firstEdge)..<Int(node.firstEdge + node.edgeCount)] {
                let key = keys[Int(edge.keyStart)..<Int(edge.keyStart + edge.keyLength)]
                pending.append((Int(edge.child), shape + separator + key, integers))
            }
            if node.intChild >= 0 { pending.append((Int(node.intChild), shape + separator + [0], integers + 1)) }
        }
        return found
    }

    /// Every method of every template the path matches, for a 405's Allow header.
    func collectMethods(node index: Int, segmentStart: Int?, path: UnsafeBufferPointer<UInt8>, into methods: inout Set<RequestMethod>) {
        let node = nodes[index]
        guard let start = segmentStart else {
            for position in Int(node.firstMethod)..<Int(node.firstMethod + node.methodCount) { methods.insert(endings[position].method) }
            return
        }
        let (segment, next) = self.segment(at: start, in: path)
        if let child = literalChild(of: node, segment) { collectMethods(node: child, segmentStart: next, path: path, into: &methods) }
        if node.intChild >= 0, PathTemplate.ParameterType.isInteger(segment) {
            collectMethods(node: Int(node.intChild), segmentStart: next, path: path, into: &methods)
        }
        if node.stringChild >= 0, !segment.isEmpty {
            collectMethods(node: Int(node.stringChild), segmentStart: next, path: path, into: &methods)
        }
        if node.pathChild >= 0, !segment.isEmpty {
            var after = next
            while true {
                collectMethods(node: Int(node.pathChild), segmentStart: after, path: path, into: &methods)
                guard let start = after else { return }
                after = self.segment(at: start, in: path).next
            }
        }
    }

    @inline(__always)
    private func literalChild(of node: Node, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        node.slotCount > 0 ? hashedChild(of: node, segment) : searchedChild(of: node, segment)
    }

    private func matches(_ edge: Edge, _ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(edge.keyLength) == segment.count, let bytes = segment.baseAddress else { return Int(edge.keyLength) == segment.count }
        return Self.equal(keys.baseAddress! + Int(edge.keyStart), bytes, count: segment.count)
    }

    /// Whether `count` bytes at `lhs` and `rhs` are equal, compared a word at a time (the last
    /// word overlapping the one before): a byte loop cost five instructions a byte on every
    /// request's path segments. Reads only within the `count` bytes.
    @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                    return false
                }
                offset += 8
            }
            return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        var index = 0
        while index < count, lhs[index] == rhs[index] { index += 1 }
        return index == count
    }

    /// The edge's key against a segment of the same length, bytewise like memcmp: a loop in line
    /// is cheaper than a call for path segments, which are short.
    @inline(__always)
    private func compare(_ edge: Edge, _ segment: UnsafeBufferPointer<UInt8>) -> Int {
        let key = keys.baseAddress! + Int(edge.keyStart)
        var index = 0
        while index < segment.count {
            let difference = Int(key[index]) - Int(segment[index])
            if difference != 0 { return difference }
            index += 1
        }
        return 0
    }

    @inline(__always)
    private func hashedChild(of node: Node, _ segment: UnsafeBufferPointer<UInt8>, hash: Int? = nil) -> Int? {
        let mask = Int(node.slotCount) - 1
        var slot = (hash ?? Self.hash(segment)) & mask
        while true {
            let edge = Int(slots[Int(node.firstSlot) + slot])
            if edge < 0 { return nil }
            if matches(edges[edge], segment) { return Int(edges[edge].child) }
            slot = (slot + 1) & mask
        }
    }

    /// Binary search of the node's sorted edges, for the common node with a few children.
    @inline(__always)
    private func searchedChild(of node: Node, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        var low = Int(node.firstEdge)
        var high = low + Int(node.edgeCount)
        while low < high {
            let middle = (low + high) / 2
            let edge = edges[middle]
            var order = Int(edge.keyLength) - segment.count
            if order == 0 { order = compare(edge, segment) }
            if order == 0 { return Int(edge.child) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
