/// The trie's answers for paths of literal segments only (`/v1/activities`), in one open-addressing
/// table keyed by the whole path and the method: a request to such a path costs a hash of the
/// path's words and one compare, where walking the trie cost a probe and a compare per segment.
///
/// Built by asking the trie itself for each literal path it holds and each method ending there
/// (`FrozenTrie.literalPaths`), so an entry says exactly what the walk would: precedence,
/// backtracking and discriminated groups stay the trie's alone. A path not in the table (one with
/// a parameter, a miss, a `HEAD` served from `GET`) is walked as before.
struct ExactPaths {
    private struct Entry {
        var keyStart: Int32
        var keyLength: Int32 // -1: an empty slot
        var contract: Int32
        var method: RequestMethod
    }

    // Written once when built, then only read (the trie that owns them is immutable).
    private var entries: UnsafeMutableBufferPointer<Entry>
    private var keys: UnsafeMutableBufferPointer<UInt8>
    private var mask: Int
    /// Whether a key ends in a digit: when none does, a path that does (`/v1/projects/1`, most
    /// requests by id) is no key, and `mayHold` spares it the probe (a hash of every word and
    /// a miss, about 50 instructions).
    private var keysEndInDigit = false

    private static let empty = Entry(keyStart: 0, keyLength: -1, contract: -1, method: .GET)

    /// A table with nothing in it (one empty slot, so a lookup needs no test for its size).
    init() {
        entries = .allocate(capacity: 1)
        entries.initialize(repeating: Self.empty)
        keys = .allocate(capacity: 1)
        mask = 0
    }

    /// The table for `trie`'s literal paths. Called once the trie is complete.
    init(literalPathsOf trie: FrozenTrie) {
        var found: [(path: [UInt8], method: RequestMethod, contract: Int)] = []
        for (path, methods) in trie.literalPaths() {
            for method in methods {
                let contract = path.withUnsafeBufferPointer { trie.match(segmentStart: $0.count > 1 ? 1 : nil, path: $0, method: method) }
                if let contract { found.append((path, method, contract)) }
            }
        }
        self.init(entries: found)
    }

    /// A table of these keys (whole paths, or `IntShapedPaths`' shapes) with their answers.
    init(entries found: [(path: [UInt8], method: RequestMethod, contract: Int)]) {
        var slotCount = 1
        while slotCount < 2 * found.count { slotCount *= 2 }
        var table = [Entry](repeating: Self.empty, count: slotCount)
        var keyBytes: [UInt8] = []
        for (path, method, contract) in found {
            let hash = path.withUnsafeBytes { Self.hash($0.baseAddress!, count: $0.count) }
            var slot = hash & (slotCount - 1)
            var duplicate = false
            while table[slot].keyLength >= 0 {
                let entry = table[slot]
                if entry.method == method, keyBytes[Int(entry.keyStart)..<Int(entry.keyStart + entry.keyLength)].elementsEqual(path) {
                    duplicate = true // `/` reached twice (an empty key under the root): the same answer
                    break
                }
                slot = (slot + 1) & (slotCount - 1)
            }
            if duplicate { continue }
            table[slot] = Entry(keyStart: Int32(keyBytes.count), keyLength: Int32(path.count), contract: Int32(contract), method: method)
            keyBytes += path
        }
        entries = .allocate(capacity: slotCount)
        _ = entries.initialize(from: table)
        keys = .allocate(capacity: max(keyBytes.count, 1))
        _ = keys.initialize(from: keyBytes)
        mask = slotCount - 1
        keysEndInDigit = found.contains { key in key.path.last.map { $0 &- UInt8(ascii: "0") < 10 } ?? false }
    }

    func deallocate() {
        entries.deallocate()
        keys.deallocate()
    }

    /// False when `path` is surely no key (it ends in a digit, and no key does); true when it
    /// may be one. `path` is not empty.
    @inline(__always)
    func mayHold(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        keysEndInDigit || path[path.count &- 1] &- UInt8(ascii: "0") >= 10
    }

    /// The contract the trie answers `method` at `path` with, when `path` is one of its literal
    /// paths and the method ends there; nil otherwise (the trie may still match it).
    @inline(__always)
    func contract(path: UnsafeBufferPointer<UInt8>, method: RequestMethod) -> Int? {
        guard let start = path.baseAddress else { return nil }
        var slot = Self.hash(UnsafeRawPointer(start), count: path.count) & mask
        while true {
            let entry = entries[slot]
            if entry.keyLength < 0 { return nil }
            if Int(entry.keyLength) == path.count, entry.method == method,
                FrozenTrie.equal(keys.baseAddress! + Int(entry.keyStart), start, count: path.count)
            {
                return Int(entry.contract)
            }
            slot = (slot + 1) & mask
        }
    }

    /// Every byte of the path, a word at a time (the last word overlapping the one before), each
    /// word mixed in by one multiplication. Hashing only the first and last words made every path
    /// of a family like `/v1/generated/r02344/items` share a few hash values: 10,000 generated
    /// routes probed chains of dozens of entries at every request and at every build step.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
                offset += 8
            }
            hash ^= bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            hash ^= UInt64(bytes.loadUnaligned(as: UInt32.self)) << 32 | UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else {
            for index in 0..<count { hash ^= UInt64(bytes.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
        }
        return Int(truncatingIfNeeded: (hash &* 0xff51_afd7_ed55_8ccd) &>> 32)
    }
}
