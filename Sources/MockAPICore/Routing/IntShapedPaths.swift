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
    /// request is walked. The path is read eight bytes at a time for its slashes only; the byte
    /// after each says whether a digit run starts there (most segments start with a letter and
    /// cost nothing more), each run is measured, and the bytes before an integer copied a word
    /// at a time. A byte loop cost twelve instructions a byte; a digit mask of every word as
    /// well as its slashes, about a third more than this.
    @inline(__always)
    private static func write(shapeOf path: UnsafePointer<UInt8>, count: Int, into shape: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var copied = 0 // the path's bytes before this are in the shape
        var base = 0
        // Whole words, then the rest: the path's last eight bytes with those already read masked
        // off (or, under eight bytes, the bytes one by one).
        while base &+ 8 <= count {
            let slashes = bytes(of: UnsafeRawPointer(path + base).loadUnaligned(as: UInt64.self), equalTo: UInt8(ascii: "/"))
            if slashes != 0 { replaceIntegers(after: slashes, at: base, path, count, shape, &written, &copied) }
            base &+= 8
        }
        if base < count {
            if count >= 8 {
                let last = count &- 8
                let slashes = bytes(of: UnsafeRawPointer(path + last).loadUnaligned(as: UInt64.self), equalTo: UInt8(ascii: "/"))
                replaceIntegers(after: slashes & ~bytesBelow(base &- last), at: last, path, count, shape, &written, &copied)
            } else {
                var word: UInt64 = 0
                for offset in 0..<count { word |= UInt64(path[offset]) &<< UInt64(offset &* 8) }
                replaceIntegers(after: bytes(of: word, equalTo: UInt8(ascii: "/")), at: 0, path, count, shape, &written, &copied)
            }
        }
        copy(path + copied, count: count &- copied, to: shape + written)
        return written &+ count &- copied
    }

    /// For each slash marked in `slashes` (a word's high bits, the word at `base`): when an
    /// integer segment follows it, the path up to the segment is copied and the segment
    /// written as one NUL.
    @inline(__always)
    private static func replaceIntegers(
        after slashes: UInt64, at base: Int, _ path: UnsafePointer<UInt8>, _ count: Int, _ shape: UnsafeMutablePointer<UInt8>,
        _ written: inout Int, _ copied: inout Int
    ) {
        var slashes = slashes
        while slashes != 0 {
            let start = base &+ slashes.trailingZeroBitCount &>> 3 &+ 1
            slashes &= slashes &- 1
            guard start < count, path[start] &- UInt8(ascii: "0") < 10 else { continue }
            var end = start &+ 1
            while end < count, path[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
            if end &- start <= 18, end == count || path[end] == UInt8(ascii: "/") {
                copy(path + copied, count: start &- copied, to: shape + written)
                written &+= start &- copied
                shape[written] = 0
                written &+= 1
                copied = end
            }
        }
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
}
