/// Small helpers for `Content-Type` values.
package enum MediaType {
    package static let form = "application/x-www-form-urlencoded"
    /// Bytes of no known type: a fixture's type when its extension says nothing, and an answer's without a `Content-Type`.
    package static let bytes = "application/octet-stream"

    /// `application/json` or a structured-syntax `+json` type (RFC 6839): `application/merge-patch+json`.
    package static func isJSON(_ essence: String) -> Bool {
        essence == "application/json" || essence.hasSuffix("+json")
    }

    /// The bare type, lowercased, without parameters: `multipart/form-data; boundary=x` → `multipart/form-data`.
    package static func essence(of value: String) -> String {
        // Cut and trimmed as bytes (`;`, space and tab are ASCII): done Character by Character,
        // with `lowercased()` on every value, it cost ~7,800 instructions a response as a set loads.
        let utf8 = value.utf8
        var start = utf8.startIndex
        var end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while start < end, isBlank(utf8[start]) { utf8.formIndex(after: &start) }
        while start < end, isBlank(utf8[utf8.index(before: end)]) { utf8.formIndex(before: &end) }
        let essence = Substring(utf8[start..<end])
        // Only text with a capital (or beyond ASCII, whose lowercase is Unicode's) needs lowering.
        return essence.utf8.contains { $0 >= UInt8(ascii: "A") && ($0 <= UInt8(ascii: "Z") || $0 >= 0x80) } ? essence.lowercased() : String(essence)
    }

    /// A parameter's value, unquoted: `parameter("boundary", in: "multipart/form-data; boundary=\"a b\"")` → `a b`.
    /// A `;` inside a quoted value belongs to the value (`filename="a;b.png"` is `a;b.png`).
    package static func parameter(_ name: String, in value: String) -> String? {
        for piece in parameterPieces(value).dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            guard piece[..<equals].trimmingWhitespace().lowercased() == name else { continue }
            let result = piece[piece.index(after: equals)...].trimmingWhitespace()
            guard result.count >= 2, result.hasPrefix("\""), result.hasSuffix("\"") else { return result }
            return unquoted(result.dropFirst().dropLast())
        }
        return nil
    }

    /// The value split at each `;` outside double quotes.
    private static func parameterPieces(_ value: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        for index in value.indices {
            let character = value[index]
            if escaped { escaped = false; continue }
            if quoted, character == "\\" { escaped = true; continue }
            if character == "\"" { quoted.toggle() }
            if character == ";", !quoted {
                pieces.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        pieces.append(value[start...])
        return pieces
    }

    /// A quoted string's content with its backslash escapes undone (RFC 9110 quoted-pair).
    private static func unquoted(_ content: Substring) -> String {
        var result = ""
        var escaped = false
        for character in content {
            if !escaped, character == "\\" { escaped = true; continue }
            escaped = false
            result.append(character)
        }
        return result
    }

    /// The content type served for a fixture file, by extension.
    /// The extension is what follows the last `.` of the file's name (not of a folder's); a
    /// name without one is served as bytes.
    package static func forFile(named name: String) -> String {
        // Read as bytes: a Character-wise split and `lowercased()` cost ~10,000 instructions a
        // fixture when a set loads.
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), !utf8[dot...].contains(UInt8(ascii: "/")) else { return bytes }
        let written = Substring(utf8[utf8.index(after: dot)...])
        let ext = written.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? written.lowercased() : String(written)
        switch ext {
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "xml": return "application/xml"
        case "csv": return "text/csv"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "mp4": return "video/mp4"
        case "mov": return "video/quicktime"
        case "pdf": return "application/pdf"
        default: return bytes
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
