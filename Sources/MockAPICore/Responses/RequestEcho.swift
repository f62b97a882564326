/// A request's body as an answer's `{{body…}}` placeholders read it: the bytes the server kept,
/// handed over as they are and read only when a template asks (most answers never do).
package enum EchoBody: Sendable {
    /// No body, or one the server did not keep (multipart, a type it does not read).
    case none
    /// A JSON body's bytes, not yet parsed.
    case json([UInt8])
    /// An `application/x-www-form-urlencoded` body's bytes.
    case form([UInt8])
    /// Fields already decoded: a multipart body's text parts (those without a file name).
    case fields([QueryArgument])
}

/// One value a `{{body…}}` placeholder found in the request.
enum EchoedValue: Equatable {
    /// Not there: no such key, no usable body, or a body that is not valid JSON.
    case missing
    /// A JSON value's exact text in the request: numbers keep every digit (`123456789012345678901234567890`
    /// is not rounded through a Double), strings their own escapes.
    case json(ArraySlice<UInt8>)
    /// A form field's or multipart text part's decoded value.
    case text(String)

    /// The value where a JSON value goes (the placeholder was a JSON string's whole text):
    /// JSON with its type kept, `null` when missing. Whitespace between tokens is dropped.
    func writeJSON(to out: inout [UInt8]) {
        switch self {
        case .missing:
            out += "null".utf8
        case .json(let text):
            JSONSpans.appendMinified(text, to: &out)
        case .text(let string):
            var quoted = ""
            JSONValue.writeString(string, to: &quoted)
            out += quoted.utf8
        }
    }

    /// The value as text, to be escaped for where it goes: a string's characters, a number or
    /// boolean as written, an object or array as compact JSON; empty when missing or `null`.
    var text: String {
        switch self {
        case .missing:
            return ""
        case .text(let string):
            return string
        case .json(let text):
            switch text.first {
            case UInt8(ascii: "\""):
                // The span is one valid JSON string: the parser undoes its escapes.
                if case .string(let string) = try? JSONParser.parse(text) { return string }
                return ""
            case UInt8(ascii: "n"):
                return ""
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var out: [UInt8] = []
                JSONSpans.appendMinified(text, to: &out)
                return String(decoding: out, as: UTF8.self)
            default:
                return String(decoding: text, as: UTF8.self)
            }
        }
    }
}

/// The request body read once for one answer: a JSON body checked to be valid JSON (otherwise
/// every value is missing), a form body split into fields.
struct EchoSource {
    private enum Read {
        case none
        case json([UInt8])
        case form([QueryArgument])
    }

    private let read: Read

    init(_ body: EchoBody) {
        switch body {
        case .none:
            read = .none
        case .json(let bytes):
            // The walk below trusts the bytes to be JSON: a body the contract did not check may
            // not be (and an echo of half a value would break the answer's own JSON).
            read = (try? JSONParser.parse(bytes)) == nil ? .none : .json(bytes)
        case .form(let bytes):
            read = .form(bytes.withUnsafeBytes(QueryString.arguments))
        case .fields(let fields):
            read = .form(fields)
        }
    }

    /// The value at a key path (`["user", "name"]`, `["items", "0"]`); `[]` is the whole body.
    func value(at path: [String]) -> EchoedValue {
        switch read {
        case .none:
            return .missing
        case .json(let bytes):
            return JSONSpans(bytes: bytes).span(at: path).map { .json(bytes[$0]) } ?? .missing
        case .form(let fields):
            guard let first = path.first else { return .missing }
            // `address[city]`, as forms write nested keys (and as `request.json` reads them), or a
            // field whose own name has dots.
            let bracketed = first + path.dropFirst().map { "[\($0)]" }.joined()
            let dotted = path.joined(separator: ".")
            guard let field = fields.first(where: { $0.name == bracketed || $0.name == dotted }) else { return .missing }
            return .text(field.value ?? "")
        }
    }
}

/// Finds a value's bytes in a JSON document that has already parsed, without building it:
/// object keys compared as bytes (decoded only when they hold an escape), array elements counted.
struct JSONSpans {
    let bytes: [UInt8]

    /// Where the value at `path` is; nil when a key or element is not there, or a step goes
    /// into a string, number, boolean or null.
    func span(at path: [String]) -> Range<Int>? {
        var start = skipWhitespace(0)
        for segment in path {
            guard start < bytes.count else { return nil }
            switch bytes[start] {
            case UInt8(ascii: "{"):
                guard let found = member(segment, inObjectAt: start) else { return nil }
                start = found
            case UInt8(ascii: "["):
                // Decimal digits only: `01`, `+1` and `-1` name no element.
                guard let index = Int(segment), index >= 0, segment.utf8.allSatisfy(ASCII.isDigit), segment == String(index) else { return nil }
                guard let found = element(index, inArrayAt: start) else { return nil }
                start = found
            default:
                return nil
            }
        }
        guard start < bytes.count else { return nil }
        return start..<skipValue(start)
    }

    /// The start of `key`'s value in the object at `start`.
    private func member(_ key: String, inObjectAt start: Int) -> Int? {
        let wanted = Array(key.utf8)
        var position = skipWhitespace(start + 1)
        while position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            let keyEnd = skipString(position)
            let matches = keyMatches(position..<keyEnd, wanted)
            position = skipWhitespace(keyEnd) + 1 // past the colon
            position = skipWhitespace(position)
            if matches { return position }
            position = skipWhitespace(skipValue(position))
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return nil }
            position = skipWhitespace(position + 1)
        }
        return nil
    }

    private func keyMatches(_ quoted: Range<Int>, _ wanted: [UInt8]) -> Bool {
        let inner = bytes[(quoted.lowerBound + 1)..<(quoted.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return inner.elementsEqual(wanted) }
        guard case .string(let decoded) = try? JSONParser.parse(bytes[quoted]) else { return false }
        return decoded.utf8.elementsEqual(wanted)
    }

    /// The start of element `index` of the array at `start`.
    private func element(_ index: Int, inArrayAt start: Int) -> Int? {
        var position = skipWhitespace(start + 1)
        guard position < bytes.count, bytes[position] != UInt8(ascii: "]") else { return nil }
        var current = 0
        while current < index {
            position = skipWhitespace(skipValue(position))
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return nil }
            position = skipWhitespace(position + 1)
            current += 1
        }
        return position
    }

    private func skipWhitespace(_ start: Int) -> Int {
        var position = start
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position
    }

    /// Past the string that opens at `start` (its quote).
    private func skipString(_ start: Int) -> Int {
        var position = start + 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): return position + 1
            default: position += 1
            }
        }
        return position
    }

    /// Past the value that starts at `start`.
    private func skipValue(_ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var position = start
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    position = skipString(position)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default:
                    break
                }
                position += 1
            }
            return position
        default:
            // A number, true, false or null: up to the next delimiter.
            var position = start
            while position < bytes.count, !Self.isWhitespace(bytes[position]),
                ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[position])
            {
                position += 1
            }
            return position
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A JSON value's text without the whitespace between its tokens (strings kept as they are).
    static func appendMinified(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                out.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                out.append(byte)
            } else if !isWhitespace(byte) {
                out.append(byte)
            }
        }
    }
}
