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
    }

    /// Whether a header of this name is journaled as `[redacted]`.
    package func redacts(_ name: String) -> Bool {
        Array(name.utf8).withUnsafeBytes { redacts($0) }
    }

    func redacts(_ name: UnsafeRawBufferPointer) -> Bool {
        guard isOn else { return false }
        for redacted in names where Self.equalIgnoringCase(name, redacted) { return true }
        return Self.containsSensitiveWord(name)
    }

    /// Whether one of `sensitiveWords` is in `name` (any case): one pass that tries a word only
    /// where its first letter is, since every journaled request's headers go through this.
    private static func containsSensitiveWord(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= 5 else { return false } // "token", the shortest word
        for start in 0...(name.count - 5) {
            switch name[start] | 0x20 {
            case UInt8(ascii: "t"), UInt8(ascii: "s"), UInt8(ascii: "p"), UInt8(ascii: "a"):
                let rest = UnsafeRawBufferPointer(rebasing: name[start...])
                for word in sensitiveWords where word[0] == name[start] | 0x20 && startsWith(rest, lowercased: word) { return true }
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
