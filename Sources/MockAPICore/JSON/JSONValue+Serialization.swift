extension JSONValue {
    /// Compact JSON text. Keys keep their order, so output is stable for stable input.
    package var serialized: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text (two spaces), for bodies people read.
    package var prettySerialized: String { prettySerialized(level: 0) }

    /// The same, as a value nested `level` deep: inner lines indented to match, for documents
    /// written piece by piece (a streamed array's elements are at level 1).
    package func prettySerialized(level: Int) -> String {
        var out = ""
        write(to: &out, indent: "  ", level: level)
        return out
    }

    /// A whole number beyond Int64 (a 20-digit id, which the parser reads as a Double) is written
    /// as digits, not `1.2345678901234567e+19`: a reader that tells integers from floats by their
    /// text (Python's json, so JSON Schema's `integer` there) keeps it an integer.
    private static func writeDouble(_ d: Double, to out: inout String) {
        guard d.isFinite else {
            out += "null"
            return
        }
        guard abs(d) >= 9_223_372_036_854_775_808.0, abs(d) < 1e30 else {
            out += "\(d)"
            return
        }
        // Exact: the significand times 2^exponent, doubled digit by digit (least significant first).
        var digits = [UInt8](String(UInt64(d.significandBitPattern | (1 << 52))).utf8.reversed().map { $0 - 48 })
        for _ in 0..<(Int(d.exponent) - 52) {
            var carry: UInt8 = 0
            for index in digits.indices {
                let doubled = digits[index] * 2 + carry
                digits[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        out += (d < 0 ? "-" : "") + String(decoding: digits.reversed().map { $0 + 48 }, as: UTF8.self)
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): Self.writeDouble(d, to: &out)
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, to: &out, indent: indent, level: level) { i, out in
                elements[i].write(to: &out, indent: indent, level: level + 1)
            }
        case .object(let object):
            let members = object.members
            writeContainer(open: "{", close: "}", count: members.count, to: &out, indent: indent, level: level) { i, out in
                Self.writeString(members[i].key, to: &out)
                out += indent == nil ? ":" : ": "
                members[i].value.write(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to out: inout String, indent: String?, level: Int,
        element: (Int, inout String) -> Void
    ) {
        out += open
        guard count > 0 else { out += close; return }
        for i in 0..<count {
            if i > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: indent, count: level + 1) }
            element(i, &out)
        }
        if let indent { out += "\n" + String(repeating: indent, count: level) }
        out += close
    }

    static func writeString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    package init(nilLiteral: ()) { self = .null }
}

extension Optional where Wrapped == String {
    /// A string or JSON null.
    package var json: JSONValue { map(JSONValue.string) ?? .null }
}
