/// Compares two JSON bodies by shape, as a decoder sees them: keys, JSON types, nulls and array
/// elements; values themselves may change freely. `mockapi diff` compares an old fixture with a new
/// one; `verify-backend` compares a fixture (old: what clients were built on) with a real answer.
package struct JSONShapeComparison {
    package struct Difference: Sendable {
        package var path: String
        /// A client decoding the old shape can fail on the new one.
        package var breaking: Bool
        package var message: String
    }

    package private(set) var differences: [Difference] = []
    /// How a missing and an extra key are said: "key id removed from the fixture", "new key note in the fixture".
    private let missing: String
    private let extra: String

    package init(missing: String = "removed from the fixture", extra: String = "in the fixture") {
        self.missing = missing
        self.extra = extra
    }

    package mutating func compare(_ old: JSONValue, _ new: JSONValue, at path: String) {
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for (key, value) in before.members {
                guard let counterpart = after[key] else {
                    differences.append(Difference(path: "\(path).\(key)", breaking: true, message: "key \(key) \(missing)"))
                    continue
                }
                compare(value, counterpart, at: "\(path).\(key)")
            }
            for key in after.keys where before[key] == nil {
                differences.append(Difference(path: "\(path).\(key)", breaking: false, message: "new key \(key) \(extra)"))
            }
        case (.array(let before), .array(let after)):
            // One element stands for all: fixtures list records of one shape.
            if let first = before.first, let counterpart = after.first { compare(first, counterpart, at: "\(path)[0]") }
        case (.null, .null), (.string, .string), (.bool, .bool), (.int, .int), (.double, .double):
            break
        case (.double, .int):
            break // a Double decodes an integer
        case (.null, _):
            differences.append(Difference(path: path, breaking: false, message: "was null, now \(new.typeName)"))
        case (_, .null):
            differences.append(Difference(path: path, breaking: true, message: "now null, was \(old.typeName) (a non-optional property fails to decode)"))
        default:
            differences.append(Difference(path: path, breaking: true, message: "type changed from \(old.typeName) to \(new.typeName)"))
        }
    }
}
