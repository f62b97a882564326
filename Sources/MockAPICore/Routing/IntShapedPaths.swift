/// The trie's answers for paths of literal segments and `{name:int}` parameters
/// (`/v1/projects/{projectId:int}/backers/{backerId:int}`), in an `ExactPaths` table keyed by
/// the path's shape: each segment of 1 to 18 digits written as one NUL byte. A request to a
/// resource by its ids costs a pass over its path's words, a hash and a compare, where the
/// walk cost a probe or a scan of edges per segment (527 instructions for that path, a quarter
/// of mockapi's own work on such a request).
///
/// Built as `ExactPaths` is, by asking the trie for each shape, with `0` for every integer
/// segment. The trie's answer is the same for every integer there, so the shape says it: no
/// literal key in the trie is an integer (`FrozenTrie.intShapedPaths` gives none otherwise, and
/// the table stays empty), so an integer segment takes no literal child, and the int, string
/// and path children it may take accept any integer alike. A segment that is an integer of
/// another form (`-1`, 19 digits) stays in the shape as it is, which no key holds: walked.
struct IntShapedPaths {
    /// Nil when the trie has no integer-shaped path, or a literal key that is an integer.
    private var table: ExactPaths?
    /// Longer paths are walked: the shape is written in a buffer on the stack.
    private static let longestPath = 512

    init() {}

    /// The table for `trie`'s integer-shaped paths. Called once the trie is complete.
    init(of trie: FrozenTrie) {
        guard let shapes = trie.intShapedPaths(), !shapes.isEmpty else { return }
        var found: [(path: [UInt8], method: RequestMethod, contract: Int)] = []
        for (shape, methods) in shapes {
            let sample = shape.map { $0 == 0 ? UInt8(ascii: "0") : $0 }
            for method in methods {
                let contract = sample.withUnsafeBufferPointer { trie.match(segmentStart: $0.count > 1 ? 1 : nil, path: $0, method: method) }
                if let contract { found.append((shape, method, contract)) }
            }
        }
        table = ExactPaths(entries: found)
    }

    func deallocate() { table?.deallocate() }

    /// The contract the trie answers `method` at `path` with, when the path's shape is one of
    /// its integer-shaped paths and the method ends there; nil otherwise (it may still match).
    @inline(__always)
    func contract(path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        guard let table, path.count <= Self.longestPath, let bytes = path.baseAddress else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestPath) { shape in
            let count = Self.write(shapeOf: bytes, count: path.count, into: shape.baseAddress!)
            return table.contract(path: UnsafeBufferPointer(start: shape.baseAddress!, count: count), method: method)
        }
    }

    /// `path`'s shape, as a lookup writes it (for tests).
    static func shape(of path: [UInt8]) -> [UInt8] {
        path.withUnsafeBufferPointer { path in
            [UInt8](unsafeUninitializedCapacity: max(path.count, 1)) { shape, written in
                written = path.baseAddress.map { write(shapeOf: $0, count: path.count, into: shape.baseAddress!) } ?? 0
            }
        }
    }

    /// Copies the path into `shape`, each integer segment as one NUL; returns the shape's
    /// length, never more than the path's. An integer segment here is 1 to 18 digits: a sign
    /// or a longer id is left as it is, a literal no key holds (none is an integer), so the
    /// request is walked. The path is read eight bytes at a time for the digits that follow a
    /// slash (most segments have none, and cost nothing more); each such run is measured, and
    /// the bytes before an integer copied a word at a time. A byte loop cost twelve
    /// instructions a byte.
    @inline(__always)
    private static func write(shapeOf path: UnsafePointer<UInt8>, count: Int, into shape: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var copied = 0 // the path's bytes before this are in the shape
        var index = 0
        while index < count {
            // The word at `index`, or the path's last eight bytes (those before `index` done).
            let base = count >= 8 ? min(index, count &- 8) : 0
            var word: UInt64 = 0
            if count >= 8 {
                word = UnsafeRawPointer(path + base).loadUnaligned(as: UInt64.self)
            } else {
                for offset in 0..<count { word |= UInt64(path[offset]) &<< UInt64(offset &* 8) }
            }
            let slashes = bytes(of: word, equalTo: UInt8(ascii: "/"))
            // Each digit right after a slash, among the bytes not yet looked at; the slash before
            // the word's first byte is in the word before.
            let digits = digitBytes(word)
            var starts = (slashes &<< 8) & digits & ~bytesBelow(index &- base)
            if base == index, index > 0, path[index &- 1] == UInt8(ascii: "/") { starts |= digits & 0x80 }
            while starts != 0 {
                let start = base &+ starts.trailingZeroBitCount &>> 3
                var end = start &+ 1
                while end < count, path[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
                if end &- start <= 18, end == count || path[end] == UInt8(ascii: "/") {
                    copy(path + copied, count: start &- copied, to: shape + written)
                    written &+= start &- copied
                    shape[written] = 0
                    written &+= 1
                    copied = end
                }
                starts &= starts &- 1
            }
            index = base &+ 8
        }
        copy(path + copied, count: count &- copied, to: shape + written)
        return written &+ count &- copied
    }

    /// `count` bytes, a word at a time (the last word overlapping the one before), four bytes or
    /// one at a time below eight.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else {
            for offset in 0..<count { target[offset] = source[offset] }
        }
    }

    /// The bits of a word's first `count` bytes (0...8).
    @inline(__always)
    private static func bytesBelow(_ count: Int) -> UInt64 {
        count >= 8 ? UInt64.max : (1 &<< UInt64(count &* 8)) &- 1
    }

    private static let everyByte: UInt64 = 0x0101_0101_0101_0101

    /// The bytes of `word` equal to `byte`, as their high bits (exact for each byte).
    @inline(__always)
    private static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let differences = word ^ (everyByte &* UInt64(byte))
        return ~(((differences & (everyByte &* 0x7f)) &+ everyByte &* 0x7f) | differences) & (everyByte &* 0x80)
    }

    /// The bytes of `word` that are ASCII digits, as their high bits.
    @inline(__always)
    private static func digitBytes(_ word: UInt64) -> UInt64 {
        let high = everyByte &* 0x80
        let low = word & (everyByte &* 0x7f)
        // A byte below 0x80 lies in '0'...'9' when adding 0x80 - '0' sets its high bit and
        // adding 0x7f - '9' does not (no sum carries into the next byte).
        return (low &+ everyByte &* UInt64(0x80 - 0x30)) & ~(low &+ everyByte &* UInt64(0x7f - 0x39)) & high & ~word
    }
}
