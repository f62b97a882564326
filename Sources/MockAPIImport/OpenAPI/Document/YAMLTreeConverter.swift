import MockAPICore
import Yams

/// A composed YAML tree as JSON: mappings keep their key order, `<<` merge keys are folded in,
/// and plain scalars are read as the YAML 1.2 core schema reads them (`yes` and `on` stay text,
/// so an enum of `[yes, no]` is two strings). An integer too large for Int is a Double.
enum YAMLTreeConverter {
    static func value(of node: Node) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? plain(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            return .array(sequence.map(value(of:)))
        case .mapping(let mapping):
            return .object(object(mapping))
        case .alias:
            return .null
        }
    }

    private static func object(_ mapping: Node.Mapping) -> JSONObject {
        var explicit: [(String, JSONValue)] = []
        var merged = JSONObject()
        for (key, value) in mapping {
            if key.tag.description == Tag.Name.merge.rawValue {
                // As YAML: merged keys come first, the first merged mapping wins among them.
                let sources: [Node] = if case .sequence(let sequence) = value { Array(sequence) } else { [value] }
                for source in sources {
                    guard case .mapping(let inner) = source else { continue }
                    for (innerKey, innerValue) in object(inner).members where merged[innerKey] == nil { merged[innerKey] = innerValue }
                }
            } else {
                explicit.append((key.string ?? "", self.value(of: value)))
            }
        }
        // A written key wins over a merged one; the last duplicate wins.
        for (key, value) in explicit { merged[key] = value }
        return merged
    }

    static func plain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return .string(text) }
        if isInteger(text) {
            let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
            if let int = Int(digits) { return .int(int) }
            return Double(digits).map(JSONValue.double) ?? .string(text)
        }
        if isDecimal(text), let double = Double(text) { return .double(double) }
        return .string(text)
    }

    private static func isInteger(_ text: String) -> Bool {
        var bytes = Substring(text).utf8
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `1.5`, `-.5`, `1e3`, `2.5E-3` (YAML 1.2 core float, without `.inf` and `.nan`).
    private static func isDecimal(_ text: String) -> Bool {
        var sawDigit = false, sawDot = false, sawExponent = false, previous: UInt8 = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard index == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: "."):
                guard !sawDot, !sawExponent else { return false }
                sawDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
            default: return false
            }
            previous = byte
        }
        return sawDigit
    }
}
