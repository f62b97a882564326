/// Which request headers the journal and the request log show as `[redacted]`.
///
/// By default the usual credential headers: `Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie`, and any header whose name contains `token`, `secret`, `password`, `api-key` or
/// `apikey` (`X-Api-Key`, `X-Auth-Token`, `X-Csrf-Token`, `Client-Secret`…), any case; plus the
/// names a user adds (`serve --redact-header`). `--journal-secrets` turns it off.
package struct HeaderRedaction: Sendable, Equatable {
    /// Nothing is redacted (`--journal-secrets`).
    package static let off = HeaderRedaction(redacting: false)
    /// The usual credential headers.
    package static let standard = HeaderRedaction()

    package let isOn: Bool
    /// Lowercased names redacted exactly: the standard ones and the user's.
    private let names: [[UInt8]]
    /// Bit n set when one of `names` is n bytes long (bit 63: 63 or more), so a header whose
    /// length matches none (`Host`, `Accept`) skips comparing with each (about 25 instructions
    /// a header, on every journaled request).
    private let nameLengths: UInt64

    static let standardNames = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    /// A header whose name contains one of these, in any case, is redacted.
    static let sensitiveWords = WordSearch(["token", "secret", "password", "api-key", "apikey"])

    /// The standard names plus `extraNames` (any case).
    package init(extraNames: [String] = []) {
        self.init(redacting: true, extraNames: extraNames)
    }

    private init(redacting: Bool, extraNames: [String] = []) {
        isOn = redacting
        names = (Self.standardNames + extraNames.map { $0.lowercased() }).map { Array($0.utf8) }
        nameLengths = names.reduce(0) { $0 | Self.lengthBit($1.count) }
    }

    @inline(__always)
    private static func lengthBit(_ count: Int) -> UInt64 {
        1 << UInt64(min(count, 63))
    }

    /// Whether a header of this name is journaled as `[redacted]`.
    package func redacts(_ name: String) -> Bool {
        Array(name.utf8).withUnsafeBytes { redacts($0) }
    }

    func redacts(_ name: UnsafeRawBufferPointer) -> Bool {
        guard isOn else { return false }
        if nameLengths & Self.lengthBit(name.count) != 0 {
            for index in names.indices where Self.equalIgnoringCase(name, names[index]) { return true }
        }
        // The length first: a name shorter than every word (`Host`) skips reading the static list.
        return name.count >= 5 && Self.sensitiveWords.found(in: name)
    }

    /// Query parameters journaled and logged as `[redacted]`: credentials sent in the URL
    /// (`?access_token=…`, `?api_key=…`). A name is redacted when it is one of `queryNames` or
    /// a name the user added (`--redact-header`), or contains one of `queryWords`, any case.
    static let queryNames: [[UInt8]] = ["key", "auth", "sig", "signature", "sessionid", "jwt"].map { Array($0.utf8) }
    static let queryWords = WordSearch(["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "credential"])

    package func redactsQuery(_ name: String) -> Bool {
        guard isOn else { return false }
        var name = name
        return name.withUTF8 { bytes in
            let name = UnsafeRawBufferPointer(bytes)
            if Self.queryNames.contains(where: { Self.equalIgnoringCase(name, $0) }) { return true }
            if names.contains(where: { Self.equalIgnoringCase(name, $0) }) { return true }
            return Self.queryWords.found(in: name)
        }
    }

    /// The query as the journal and the log keep it: credential-like values `[redacted]`.
    package func journaledQuery(_ query: [QueryArgument]) -> [QueryArgument] {
        guard isOn, query.contains(where: { $0.value != nil && redactsQuery($0.name) }) else { return query }
        return query.map { $0.value != nil && redactsQuery($0.name) ? QueryArgument($0.name, "[redacted]") : $0 }
    }

    /// What of an `Authorization` or `Proxy-Authorization` value stays before `[redacted]`: its
    /// scheme (`Bearer` of `Bearer abc123`), so a reader still sees which kind of credential the
    /// client sent. Nil for every other header, and for a value without a well-formed scheme:
    /// redacted whole (the first word of a Cookie is a credential).
    static func keptScheme(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard equalIgnoringCase(name, authorization) || equalIgnoringCase(name, proxyAuthorization),
            let space = value.firstIndex(of: UInt8(ascii: " ")), space > 0
        else { return nil }
        let scheme = UnsafeRawBufferPointer(rebasing: value[..<space])
        guard scheme.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: "-") }) else { return nil }
        return scheme
    }

    private static let authorization = Array("authorization".utf8)
    private static let proxyAuthorization = Array("proxy-authorization".utf8)

    /// ASCII letters compared without case (`| 0x20` lowercases a letter; `name` is a header name,
    /// a token, where that maps no other byte onto a letter).
    private static func equalIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercased: [UInt8]) -> Bool {
        guard name.count == lowercased.count else { return false }
        return lowercased.withUnsafeBufferPointer { wanted in
            for index in 0..<wanted.count where name[index] | 0x20 != wanted[index] | 0x20 { return false }
            return true
        }
    }

}

/// Words looked for inside names, in any case (`| 0x20` on both sides, so `_` matches only `_`).
/// Each position of a name is read as four bytes, hashed to one of 64 bits, and compared with the
/// words' first four only when a word's head set that bit; only a match reads on. The redaction
/// check runs on every header of every journaled request: the search this replaces, a byte
/// comparison per candidate word through an array of arrays, cost about 1,800 instructions a
/// request for a typical app's five headers (callgrind); this costs about 200.
struct WordSearch: Sendable {
    /// The words as compared (`| 0x20`), each at least 4 bytes long.
    private let words: [[UInt8]]
    /// Each word's first four bytes, as a little-endian load of a name's bytes reads them.
    private let heads: [UInt32]
    /// The shortest word's length: shorter names hold none.
    let shortest: Int
    /// Bit `bucket(head)` set for each word's head: most positions of a name miss them all.
    private let filter: UInt64

    init(_ words: [String]) {
        let folded = words.map { $0.utf8.map { $0 | 0x20 } }
        precondition(folded.allSatisfy { $0.count >= 4 }, "a WordSearch word has at least 4 bytes")
        self.words = folded
        heads = folded.map { UInt32($0[0]) | UInt32($0[1]) << 8 | UInt32($0[2]) << 16 | UInt32($0[3]) << 24 }
        shortest = folded.map(\.count).min() ?? 4
        filter = heads.reduce(0) { $0 | 1 << Self.bucket($1) }
    }

    /// One of 64 buckets for four bytes (a multiplicative hash's top six bits).
    @inline(__always)
    private static func bucket(_ head: UInt32) -> UInt64 {
        UInt64((head &* 0x9E37_79B1) >> 26)
    }

    /// Whether one of the words is in `name`.
    func found(in name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= shortest, let base = name.baseAddress else { return false }
        // `shortest` >= 4: every position read has four bytes. A while loop with wrapping steps:
        // the range loop's overflow checks were a third of each position's instructions.
        let last = name.count &- shortest
        var start = 0
        while start <= last {
            let head = base.loadUnaligned(fromByteOffset: start, as: UInt32.self) | 0x2020_2020
            if filter & 1 << Self.bucket(head) != 0, wordStarts(with: head, in: name, at: start) { return true }
            start &+= 1
        }
        return false
    }

    /// Whether a word whose first four bytes are `head` is at `start`: rare, out of the loop.
    @inline(never)
    private func wordStarts(with head: UInt32, in name: UnsafeRawBufferPointer, at start: Int) -> Bool {
        for index in heads.indices where heads[index] == head && endsHere(name, at: start, word: index) { return true }
        return false
    }

    /// Whether word `index`, whose first four bytes are at `start`, is there whole.
    private func endsHere(_ name: UnsafeRawBufferPointer, at start: Int, word index: Int) -> Bool {
        let word = words[index]
        guard start + word.count <= name.count else { return false }
        for offset in 4..<word.count where name[start + offset] | 0x20 != word[offset] { return false }
        return true
    }
}
