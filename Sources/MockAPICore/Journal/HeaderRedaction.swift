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
    /// A header whose lowercased name contains one of these is redacted. Each starts with t, s, p
    /// or a, the letters `containsSensitiveWord` looks for.
    static let sensitiveWords: [[UInt8]] = ["token", "secret", "password", "api-key", "apikey"].map { Array($0.utf8) }

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
            for redacted in names where Self.equalIgnoringCase(name, redacted) { return true }
        }
        // The length first: a name shorter than every word (`Host`) skips reading the static list.
        return name.count >= 5 && Self.containsWord(name, of: Self.sensitiveWords)
    }

    /// Whether one of `words` is in `name` (any case): one pass that tries a word only where
    /// its first letter is, since every journaled request's headers go through this. Every
    /// word is at least 5 letters and starts with t, s, p, a or c.
    private static func containsWord(_ name: UnsafeRawBufferPointer, of words: [[UInt8]]) -> Bool {
        guard name.count >= 5 else { return false } // "token", the shortest word
        for start in 0...(name.count - 5) {
            switch name[start] | 0x20 {
            case UInt8(ascii: "t"), UInt8(ascii: "s"), UInt8(ascii: "p"), UInt8(ascii: "a"), UInt8(ascii: "c"):
                let rest = UnsafeRawBufferPointer(rebasing: name[start...])
                for word in words where word[0] == name[start] | 0x20 && startsWith(rest, lowercased: word) { return true }
            default:
                continue
            }
        }
        return false
    }

    private static func startsWith(_ name: UnsafeRawBufferPointer, lowercased word: [UInt8]) -> Bool {
        guard name.count >= word.count else { return false }
        for index in 0..<word.count where name[index] | 0x20 != word[index] { return false }
        return true
    }

    /// Query parameters journaled and logged as `[redacted]`: credentials sent in the URL
    /// (`?access_token=…`, `?api_key=…`). A name is redacted when it is one of `queryNames` or
    /// a name the user added (`--redact-header`), or contains one of `queryWords`, any case.
    static let queryNames: [[UInt8]] = ["key", "auth", "sig", "signature", "sessionid", "jwt"].map { Array($0.utf8) }
    /// Each is at least 5 letters long and starts with t, s, p, a or c (`containsWord`). Stored
    /// `| 0x20`, as the name's bytes are compared: `_` then matches `_`.
    static let queryWords: [[UInt8]] = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "credential"]
        .map { $0.utf8.map { $0 | 0x20 } }

    package func redactsQuery(_ name: String) -> Bool {
        guard isOn else { return false }
        var name = name
        return name.withUTF8 { bytes in
            let name = UnsafeRawBufferPointer(bytes)
            if Self.queryNames.contains(where: { Self.equalIgnoringCase(name, $0) }) { return true }
            if names.contains(where: { Self.equalIgnoringCase(name, $0) }) { return true }
            return Self.containsWord(name, of: Self.queryWords)
        }
    }

    /// The query as the journal and the log keep it: credential-like values `[redacted]`.
    package func journaledQuery(_ query: [QueryArgument]) -> [QueryArgument] {
        guard isOn, query.contains(where: { $0.value != nil && redactsQuery($0.name) }) else { return query }
        return query.map { $0.value != nil && redactsQuery($0.name) ? QueryArgument($0.name, "[redacted]") : $0 }
    }

    /// `Bearer abc123` → `Bearer [redacted]` for `Authorization` and `Proxy-Authorization`: the
    /// scheme stays, so a reader still sees which kind of credential the client sent. Every other
    /// value is `[redacted]` whole (the first word of a Cookie is a credential).
    static func redacted(name: UnsafeRawBufferPointer, value: String) -> String {
        let keepsScheme = equalIgnoringCase(name, Array("authorization".utf8)) || equalIgnoringCase(name, Array("proxy-authorization".utf8))
        guard keepsScheme, let space = value.firstIndex(of: " ") else { return "[redacted]" }
        let scheme = value[..<space]
        guard !scheme.isEmpty, scheme.utf8.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: "-") }) else { return "[redacted]" }
        return scheme + " [redacted]"
    }

    /// ASCII letters compared without case (`| 0x20` lowercases a letter; `name` is a header name,
    /// a token, where that maps no other byte onto a letter).
    private static func equalIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercased: [UInt8]) -> Bool {
        name.count == lowercased.count && zip(name, lowercased).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

}
