/// A session's id: 16 lowercase hex digits (64 random bits), short enough for a URL path
/// segment and a header, URL-safe as it stands. Anything else is malformed, so a typo is a 400
/// that says so rather than a 404 for a session that could never have existed.
package enum SessionID {
    package static let length = 16

    /// A new random id.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// Whether `bytes` has the form `make` gives.
    package static func isWellFormed(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count == length && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
