/// libyaml, which reads JSON documents too, refuses a `\ud83d\udc4d` escape (a UTF-16 surrogate
/// pair, valid JSON for 👍), so Twilio's document did not import. In a JSON document, each such
/// pair is replaced by the character itself before parsing, which means the same.
enum JSONSurrogateEscapes {
    static func unescaped(_ text: String) -> String {
        guard text.utf8.first(where: { !isSpace($0) }) == UInt8(ascii: "{"), text.contains("\\u") || text.contains("\\U") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                out.append(byte)
                index += 1
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "u"), let high = hex(bytes, at: index + 2), (0xD800...0xDBFF).contains(high),
                index + 11 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                let low = hex(bytes, at: index + 8), (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            {
                out += Array(String(Character(scalar)).utf8)
                index += 12
                changed = true
                continue
            }
            // Any other escape (`\\` included) is copied whole, so its second character is never read as a new escape.
            out += bytes[index...index + 1]
            index += 2
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func hex(_ bytes: [UInt8], at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value * 16 + UInt32(digit)
        }
        return value
    }
}
