/// One legal-but-rare answer: the fixture with one change its response's `schema` allows.
package struct ResponseVariant: Sendable, Equatable {
    /// What kind of change, as reports name it: `optional key absent`, `nullable key null`, ...
    package var label: String
    /// Where: `$.projects[0].creator.avatar`.
    package var path: String
    /// The value put there; nil where the key was taken out.
    package var value: JSONValue?
    /// The whole body with the change.
    package var body: JSONValue
}

/// The rare answers a response's `schema` allows beside its fixture: each optional key absent,
/// each nullable value null, each other enum value, each array empty, a 19-digit integer, a
/// date-time with fractional seconds and one with an offset, an unknown key in an open object,
/// and where a `oneOf`/`anyOf` allows other shapes than the fixture's, a sample of each
/// (`JSONValueSchema.sample`: its enum's first value, its required keys).
///
/// One change per variant (a decoder that fails is failing on that change), in a fixed order
/// (the body's, depth first), at most `limit` of them. An array is entered at each element whose
/// shape no earlier element has (its keys, each value's JSON type, each enum value: what a decoder
/// may branch on), so `[card, paypal, card]` gets the variants of elements 0 and 1: elements of one
/// shape decode alike, and a long list of them does not multiply the variants.
package enum ResponseVariants {
    package static let limit = 64
    /// A 19-digit id: past Int32 and past a Double's exact integers (2^53).
    package static let largeInteger = 1_234_567_890_123_456_789
    /// The key an open object gains: a name no contract uses.
    package static let extraKey = "mockapi_unknown_key"

    /// The variants, and how many past `limit` were left out (0 when none).
    package static func of(_ body: JSONValue, shape: JSONValueSchema, limit: Int = limit) -> (variants: [ResponseVariant], leftOut: Int) {
        var walk = Walk(root: body, limit: limit)
        walk.visit(body, shape, at: [])
        return (walk.found, walk.leftOut)
    }

    private enum Step {
        case key(String)
        case index(Int)
    }

    private struct Walk {
        let root: JSONValue
        let limit: Int
        var found: [ResponseVariant] = []
        var leftOut = 0

        init(root: JSONValue, limit: Int) {
            self.root = root
            self.limit = limit
        }

        mutating func visit(_ value: JSONValue, _ schema: JSONValueSchema, at steps: [Step]) {
            if case .null = value { return }
            if schema.nullable { add("nullable key null", at: steps, .null) }
            if let allowed = schema.enumValues {
                for other in allowed where other != value { add("enum value", at: steps, other) }
                return
            }
            if let (keyword, options) = schema.branches {
                // A value of each other shape the value may have (a client that decodes one
                // `oneOf` option only fails on the others), then the rare forms of its own shape.
                let fitting = options.firstIndex { RequestValidator.valueViolations(value, $0, at: "$").isEmpty }
                // An option with no shape (a recursion cut short) has no sample a client must take.
                for (offset, option) in options.enumerated() where offset != fitting && !option.isUnchecked {
                    let other = option.sample
                    if other != value { add("\(keyword) option \(offset + 1)", at: steps, other) }
                }
                if let fitting { visit(value, options[fitting], at: steps) }
            }
            switch value {
            case .int where schema.type == .int || schema.type == .number:
                if schema.format != "int32", value != .int(ResponseVariants.largeInteger) {
                    add("19-digit integer", at: steps, .int(ResponseVariants.largeInteger))
                }
            case .string(let text) where schema.format == "date-time":
                let (stamp, zone) = DateFormat.isDateTime(Array(text.utf8)) ? (String(text.prefix(19)), zoneOf(text)) : ("2024-05-01T12:00:00", "Z")
                add("date-time with fractional seconds", at: steps, .string(stamp + ".123" + zone))
                add("date-time with offset", at: steps, .string(stamp + "+02:00"))
            case .object(let object):
                guard let properties = schema.properties else { return }
                for property in properties {
                    guard let child = object[property.key] else { continue }
                    if !property.required { add("optional key absent", at: steps + [.key(property.key)], nil) }
                    visit(child, property.schema, at: steps + [.key(property.key)])
                }
                if schema.otherKeys, object[ResponseVariants.extraKey] == nil {
                    add("unknown key", at: steps + [.key(ResponseVariants.extraKey)], "mockapi")
                }
            case .array(let elements):
                guard !elements.isEmpty else { return }
                if (schema.minItems ?? 0) == 0 { add("empty array", at: steps, .array([])) }
                guard let items = schema.items else { return }
                var shapes: Set<String> = []
                for (index, element) in elements.enumerated() where shapes.insert(Self.shape(of: element, items)).inserted {
                    visit(element, items, at: steps + [.index(index)])
                }
            default: break
            }
        }

        /// What tells one array element from another for a decoder: an object's keys and their
        /// values' shapes, an enum's value (a discriminator), otherwise the JSON type alone.
        static func shape(of value: JSONValue, _ schema: JSONValueSchema?) -> String {
            if schema?.enumValues != nil { return value.serialized }
            switch value {
            case .object(let object):
                let members = object.members.sorted { $0.key < $1.key }.map { key, child in
                    "\(key):" + shape(of: child, schema?.properties?.first { $0.key == key }?.schema)
                }
                return "{" + members.joined(separator: ",") + "}"
            case .array(let elements):
                return "[" + Set(elements.map { shape(of: $0, schema?.items) }).sorted().joined(separator: ",") + "]"
            default:
                return value.typeName
            }
        }

        /// `Z` or `+02:00`: what follows the seconds (and their fraction).
        private func zoneOf(_ text: String) -> String {
            let tail = text.dropFirst(19).drop { $0 == "." || $0.isNumber }
            return tail.isEmpty ? "Z" : String(tail)
        }

        private mutating func add(_ label: String, at steps: [Step], _ value: JSONValue?) {
            guard found.count < limit else {
                leftOut += 1
                return
            }
            let path = steps.reduce("$") { path, step in
                switch step {
                case .key(let key): "\(path).\(key)"
                case .index(let index): "\(path)[\(index)]"
                }
            }
            found.append(ResponseVariant(label: label, path: path, value: value, body: Self.replacing(root, at: steps[...], with: value)))
        }

        /// `value` with the member at `steps` set to `new` (taken out when nil).
        private static func replacing(_ value: JSONValue, at steps: ArraySlice<Step>, with new: JSONValue?) -> JSONValue {
            guard let step = steps.first else { return new ?? .null }
            switch (value, step) {
            case (.object(var object), .key(let key)):
                if steps.count == 1 {
                    object[key] = new
                } else if let child = object[key] {
                    object[key] = replacing(child, at: steps.dropFirst(), with: new)
                }
                return .object(object)
            case (.array(var elements), .index(let index)) where elements.indices.contains(index):
                elements[index] = replacing(elements[index], at: steps.dropFirst(), with: new)
                return .array(elements)
            default:
                return value
            }
        }
    }
}
