/// A strict JSON parser (RFC 8259) over UTF-8 bytes that reports line and column on error.
///
/// Used for contracts and fixtures at load time and for request bodies on the hot path, so it
/// works on raw bytes and allocates only for the values it returns.
package struct JSONParser {
    /// Where and why a document is not JSON.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var message: String
        package var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Nesting deeper than this is refused rather than risking the stack on hostile bodies.
    package static let maximumDepth = 512

    package static func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let array = Array(bytes)
        var parser = JSONParser(bytes: array)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < array.count { throw parser.failure("unexpected \(parser.describeCurrent()) after the JSON value") }
        return value
    }

    package static func parse(_ text: String) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private let bytes: [UInt8]
    private var position = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard position < bytes.count else { throw failure("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(object) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()), expected a string key")
            }
            let key = try parseString()
            if object.contains(key) { throw failure("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("unexpected \(describeCurrent()), expected ':' after key \"\(key)\"") }
            skipWhitespace()
            object.append(key, try parseValue(depth: depth + 1))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(object) }
            throw failure("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw failure("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1
        var scalars: [UInt8] = []
        let start = position
        // Fast path: no escapes means the bytes can be used as they are.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return try decodeUTF8(bytes[start..<(position - 1)])
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in string") }
            position += 1
        }
        scalars.append(contentsOf: bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try decodeUTF8(scalars[...])
            case UInt8(ascii: "\\"):
                try appendEscape(into: &scalars)
            case 0..<0x20:
                position -= 1
                throw failure("control character in string")
            default:
                scalars.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    private mutating func appendEscape(into scalars: inout [UInt8]) throws(Failure) {
        guard position < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4()
            if (0xD800..<0xDC00).contains(code) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else { throw failure("lone surrogate in \\u escape") }
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid surrogate pair in \\u escape") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw failure("lone surrogate in \\u escape")
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            position -= 1
            throw failure("invalid escape '\\\(describeCurrent())'")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func decodeUTF8(_ slice: ArraySlice<UInt8>) throws(Failure) -> String {
        // Keys and most values are ASCII, which needs no validation beyond this scan.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else { throw failure("invalid UTF-8 in string") }
        return string
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        guard position < bytes.count, isDigit(bytes[position]) else { throw failure("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw failure("leading zero in number") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard position < bytes.count, isDigit(bytes[position]) else { throw failure("expected a digit after '.'") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard position < bytes.count, isDigit(bytes[position]) else { throw failure("expected a digit in exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        // `1e400` reads as infinity, which JSON cannot write back (the encoder wrote `null`): refused, naming where.
        guard let double = Double(text), double.isFinite else {
            position = start // the error's column is where the number begins
            throw failure("number \(text.prefix(40)) is beyond a 64-bit float's range (at \(path(at: start)))")
        }
        return .double(double)
    }

    /// The JSON path (`$.items[3].price`) of the value starting at `offset`, found by scanning the
    /// bytes before it again: done only for a failure, so parsing keeps no stack of names.
    /// The prefix has already parsed, so the scan need not check it.
    private func path(at offset: Int) -> String {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        var frames: [Frame] = []
        var index = 0
        while index < offset, index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let textStart = index + 1
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                if case .object(_, true)? = frames.last {
                    let key = String(decoding: bytes[textStart..<min(index, bytes.count)], as: UTF8.self)
                    frames[frames.count - 1] = .object(key: key, expectingKey: false)
                }
            case UInt8(ascii: "{"): frames.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["): frames.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = frames.popLast()
            case UInt8(ascii: ","):
                switch frames.last {
                case .object?: frames[frames.count - 1] = .object(key: nil, expectingKey: true)
                case .array(let count)?: frames[frames.count - 1] = .array(index: count + 1)
                case nil: break
                }
            default: break
            }
            index += 1
        }
        var path = "$"
        for frame in frames {
            switch frame {
            case .object(let key?, _):
                let plain = !key.isEmpty && key.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
                path += plain ? ".\(key)" : "[\"\(key)\"]"
            case .object(nil, _): break
            case .array(let count): path += "[\(count)]"
            }
        }
        return path
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        let matches =
            position + count <= bytes.count
            && literal.withUTF8Buffer { expected in
                expected.elementsEqual(bytes[position..<(position + count)])
            }
        guard matches else { throw failure("unexpected \(describeCurrent()), expected a value") }
        position += count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var lineStart = 0
        for offset in 0..<min(position, bytes.count) where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return Failure(line: line, column: position - lineStart + 1, message: message)
    }
}
