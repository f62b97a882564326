/// A session's id: 16 lowercase hex digits (64 random bits), short enough for a URL path
/// segment and a header, URL-safe as it stands. Anything else is malformed, so a typo is a 400
/// that says so rather than a 404 for a session that could never have existed.
///
/// Sessions are kept by the id's value (`UInt64`): looking one up per request hashes one word,
/// where hashing the 16-character String cost a few hundred instructions.
package enum SessionID {
    package static let length = 16

    /// A new random id's value.
    package static func make() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// The id as written: 16 lowercase hex digits.
    package static func text(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// The value of an id written as `make`/`text` write them; nil for anything else.
    package static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count == length else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    package static func value(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { value($0) }
    }
}
