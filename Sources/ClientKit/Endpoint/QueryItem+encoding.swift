extension QueryItem {
    /// RFC 3986 unreserved characters: the only ones sent unescaped in names and values.
    private static let unreserved = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8
    )

    /// The percent-encoded query string (without `?`) for `items`, in order, `nil` values dropped.
    ///
    /// Arrays become `name%5B%5D=a&name%5B%5D=b` (`name[]=a&name[]=b` once decoded): Foundation's
    /// `URL` on Linux re-escapes a whole query that holds a literal `[`, `%` included, so the
    /// brackets travel escaped like every other reserved character.
    public static func encode(_ items: [QueryItem]) -> String {
        items.flatMap { item -> [String] in
            guard let value = item.value else { return [] }
            let name = percentEncode(item.name) + (isArray(value) ? "%5B%5D" : "")
            return value.wireValues.map { "\(name)=\(percentEncode($0))" }
        }
        .joined(separator: "&")
    }

    /// Escapes every byte outside the unreserved set (so space is `%20`, `+` is `%2B`).
    static func percentEncode(_ string: String) -> String {
        var encoded = ""
        for byte in string.utf8 {
            if unreserved.contains(byte) {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    private static func isArray(_ value: QueryValue) -> Bool {
        if case .array = value { return true }
        return false
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
