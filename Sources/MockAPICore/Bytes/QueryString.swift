/// Splits a raw query string into arguments the way libmicrohttpd did before mockapi took the
/// query out of its hands: `&` separates, the first `=` splits key from value (no `=`: a nil
/// value), `+` is a space, `%HH` is decoded (`%00` included: the value keeps the byte).
package enum QueryString {
    package static func arguments(_ query: UnsafeRawBufferPointer) -> [QueryArgument] {
        var arguments: [QueryArgument] = []
        var start = 0
        while start < query.count {
            var end = start
            while end < query.count, query[end] != UInt8(ascii: "&") { end += 1 }
            let piece = UnsafeRawBufferPointer(rebasing: query[start..<end])
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                arguments.append(
                    QueryArgument(
                        decode(UnsafeRawBufferPointer(rebasing: piece[..<equals])),
                        decode(UnsafeRawBufferPointer(rebasing: piece[(equals + 1)...]))
                    ))
            } else {
                arguments.append(QueryArgument(decode(piece), nil))
            }
            start = end + 1
        }
        return arguments
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
