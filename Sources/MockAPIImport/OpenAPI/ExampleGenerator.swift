import MockAPICore

/// A body made up from a schema when the document gives no example, valid against that schema.
///
/// Deterministic, so re-importing gives the same fixtures: the schema's own example, default
/// or first enum value when it has one, otherwise `"string"` (or a value of its `format`, at
/// its `minLength`/`maxLength`), a number within its bounds, `true`, `minItems` elements (at
/// least one), every property of an object, `allOf` parts merged into one value. Recursion
/// through `$ref`s stops at the second visit (the property is left out, an array is empty).
///
/// Bounded, so a small document cannot make a huge fixture (11 schemas whose 12 properties each
/// `$ref` the next are 12¹⁰ values): at most `maxValues` values, `maxTextBytes` of keys and
/// text, `maxDepth` levels. Past a bound, properties and elements are left out and `cut` names
/// the schema where that began.
struct ExampleGenerator {
    static let maxValues = 10_000
    static let maxTextBytes = 1_000_000
    static let maxDepth = 32

    let reader: SchemaReader
    /// Leave out `writeOnly` properties (responses) or `readOnly` ones (requests).
    var forResponse = true
    /// Serve a schema's own `example` where it has one (off: every value made up, as the oracle tests check).
    var usesSchemaExamples = true

    /// Why the example is not whole, naming the schema (a JSON pointer) where it was cut; nil when whole.
    private(set) var cut: String?
    /// Bounds that could not be kept exactly (beyond Int64), one line each.
    private(set) var notes: [String] = []
    private var values = 0
    private var textBytes = 0

    init(reader: SchemaReader, forResponse: Bool = true) {
        self.reader = reader
        self.forResponse = forResponse
    }

    mutating func example(for schema: DocumentNode) -> JSONValue {
        value(for: schema, visiting: [], depth: 0, within: reader.referenceName(schema) ?? "the inline schema") ?? .null
    }

    /// `within`: the innermost `$ref` on the way here, to name where a cut happened.
    /// `fillingUndeclared`: false for an `allOf` part, whose required names another part may declare
    /// (the merged value fills those it still lacks, from the declaring part's schema).
    private mutating func value(for schema: DocumentNode, visiting: Set<String>, depth: Int, within: String, fillingUndeclared: Bool = true) -> JSONValue? {
        var visiting = visiting
        var within = within
        if let name = reader.referenceName(schema) {
            guard visiting.insert(name).inserted, visiting.count < 12 else { return nil }
            within = name
        }
        guard depth < Self.maxDepth else { return stop("it is nested more than \(Self.maxDepth) levels deep", at: within) }
        guard values < Self.maxValues, textBytes < Self.maxTextBytes else {
            return stop("it reached \(Self.maxValues) values or \(Self.maxTextBytes) bytes of text", at: within)
        }
        guard let view = reader.resolve(schema) else { return .null }
        // A schema's own example of another type (`example: "1644009612"` for an integer) is not served.
        if usesSchemaExamples, let example = view.example, keeps(example, schema, depth: 0) { return counted(example) }
        if let fallback = view.defaultValue ?? view.enumValues?.first(where: { $0 != .null }) ?? view.enumValues?.first { return counted(fallback) }
        values += 1
        if let chosen = discriminated(view, schema: schema, visiting: visiting, depth: depth, within: within) { return chosen }
        if !view.allOf.isEmpty || (view.type == nil && !(view.oneOf + view.anyOf).isEmpty) {
            return combined(view, visiting: visiting, depth: depth, within: within, fillingUndeclared: fillingUndeclared)
        }
        // A type with `oneOf` constants (`type: integer, oneOf: [{const: 8}, …]`): the first option says which values.
        if view.allOf.isEmpty, !view.hasProperties, let option = (view.oneOf + view.anyOf).first,
            let chosen = value(for: option, visiting: visiting, depth: depth + 1, within: within)
        {
            return chosen
        }
        // `type: [object, "null", array]`: the first named type.
        switch view.type ?? view.types.first {
        case "null": return .null
        case "boolean": return .bool(true)
        case "integer": return integer(view)
        case "number": return number(view)
        case "string", "file":
            if let least = view.minLength, least > Self.maxStringLength {
                note(view, "minLength \(least) is more than a made-up string's \(Self.maxStringLength) characters; clamped")
            }
            return counted(.string(Self.string(view)), alreadyCounted: true)
        case "array":
            if let least = view.minItems, least > Self.maxElements { note(view, "minItems \(least) is more than a made-up array's \(Self.maxElements) elements; clamped") }
            guard let items = view.items else {
                return .array(Array(repeating: .string("string"), count: max(view.minItems ?? 0, 0).clamped(to: 0...Self.maxElements)))
            }
            guard let element = value(for: items, visiting: visiting, depth: depth + 1, within: within) else { return .array([]) }
            var count = max(1, view.minItems ?? 1)
            if let most = view.maxItems { count = min(count, most) }
            // Distinct elements are not made up: `uniqueItems` with several required is left at one.
            if view.node["uniqueItems"]?.bool == true, count > 1 {
                note(view, "minItems \(count) of distinct elements (uniqueItems) is not made up; one element")
                count = 1
            }
            return .array(Array(repeating: element, count: min(count, Self.maxElements)))
        case "object":
            return object(view, schema: schema, visiting: visiting, depth: depth, within: within, fillingUndeclared: fillingUndeclared)
        default:
            if view.hasProperties { return object(view, schema: schema, visiting: visiting, depth: depth, within: within, fillingUndeclared: fillingUndeclared) }
            return .string("string")
        }
    }

    /// A base schema with a `discriminator` mapping (Adyen's account identification): a value of the
    /// first mapped schema, its discriminating property set to that mapping's name, so a client
    /// (and schemathesis) finds a type it knows instead of the base's bare `"string"`. Nil when
    /// there is no mapping or the mapped schema is already on the way here. The base itself is
    /// let through once more: the mapped schema's `allOf` names it, and there the mapping, being
    /// on the way, is not taken again, so the base's own keys are made.
    private mutating func discriminated(_ view: SchemaView, schema: DocumentNode, visiting: Set<String>, depth: Int, within: String) -> JSONValue? {
        guard let discriminator = view.node["discriminator"], let property = discriminator["propertyName"]?.string,
            let mapping = discriminator["mapping"]?.members.first, let target = mapping.node.string
        else { return nil }
        let reference = DocumentNode(value: .object(JSONObject([("$ref", .string(target))])), file: mapping.node.file, pointer: mapping.node.pointer)
        var throughBase = visiting
        if let base = reader.referenceName(schema) { throughBase.remove(base) }
        guard case .object(var object)? = value(for: reference, visiting: throughBase, depth: depth + 1, within: within) else { return nil }
        object[property] = .string(mapping.key)
        return .object(object)
    }

    /// `allOf` parts merged into one value (objects' keys together, else the first part that makes a value);
    /// `oneOf`/`anyOf` without a type: the first option.
    private mutating func combined(_ view: SchemaView, visiting: Set<String>, depth: Int, within: String, fillingUndeclared: Bool = true) -> JSONValue? {
        var merged: JSONObject?
        var scalar: JSONValue?
        var parts = view.allOf
        if view.hasProperties || view.type == "object" { parts.insert(view.node, at: 0) }
        for part in parts {
            let produced: JSONValue?
            if part.pointer == view.node.pointer, part.file == view.node.file {
                // Its required names that only the `allOf` parts declare are theirs to make.
                produced = object(view, schema: part, visiting: visiting, depth: depth, within: within, fillingUndeclared: false)
            } else {
                produced = value(for: part, visiting: visiting, depth: depth + 1, within: within, fillingUndeclared: false)
            }
            switch produced {
            case .object(let object)?:
                var into = merged ?? JSONObject()
                for (key, member) in object.members where into[key] == nil { into[key] = member }
                merged = into
            case .some(let other) where other != .null && scalar == nil:
                scalar = other
            default: continue
            }
        }
        if let option = (view.oneOf + view.anyOf).first, merged == nil, scalar == nil {
            return value(for: option, visiting: visiting, depth: depth + 1, within: within)
        }
        if var merged {
            guard fillingUndeclared else { return .object(merged) }
            // Required names no part made a value for: of the declaring part's type where one declares it.
            let declared = reader.properties(of: view.node) ?? []
            var seen: Set<String> = []
            for name in requiredNames(view.node, depth: 0, seen: &seen).sorted() where merged[name] == nil {
                merged[name] = declared.first { $0.name == name }.map { shallow(reader.resolve($0.schema)) } ?? .string("string")
            }
            return .object(merged)
        }
        return scalar ?? (view.nullable ? .null : .object(JSONObject()))
    }

    /// The names a schema and its `allOf` parts require; `seen`: parts already asked (`allOf`s that lead back to themselves).
    private func requiredNames(_ schema: DocumentNode, depth: Int, seen: inout Set<String>) -> Set<String> {
        if let name = reader.referenceName(schema), !seen.insert(name).inserted { return [] }
        guard depth < 16, let view = reader.resolve(schema) else { return [] }
        var names = view.required
        for part in view.allOf { names.formUnion(requiredNames(part, depth: depth + 1, seen: &seen)) }
        return names
    }

    private mutating func object(
        _ view: SchemaView, schema: DocumentNode, visiting: Set<String>, depth: Int, within: String, fillingUndeclared: Bool = true
    ) -> JSONValue? {
        var object = JSONObject()
        let required = view.required
        for (name, property) in view.properties {
            let propertyView = reader.resolve(property)
            if forResponse ? propertyView?.writeOnly == true : propertyView?.readOnly == true, !required.contains(name) { continue }
            if let element = value(for: property, visiting: visiting, depth: depth + 1, within: within) {
                object[name] = element
                textBytes += name.utf8.count
            } else if required.contains(name) {
                // Recursion or a bound stopped here, but the key is required: a value of its type, not followed further.
                object[name] = shallow(propertyView)
            }
        }
        // A required name the schema does not declare (`required: [id]` beside `Id`) is present too.
        for name in view.required.sorted() where fillingUndeclared && object[name] == nil && !view.properties.contains(where: { $0.name == name }) {
            object[name] = .string("string")
        }
        // A map with no named keys but a minimum number of them gets that many.
        if object.isEmpty, let least = view.minProperties, least > 0, case .schema(let other)? = view.additionalProperties {
            if least > Self.maxElements { note(view, "minProperties \(least) is more than a made-up object's \(Self.maxElements) keys; clamped") }
            for index in 0..<min(least, Self.maxElements) {
                if let element = value(for: other, visiting: visiting, depth: depth + 1, within: within) { object["key\(index)"] = element }
            }
        }
        return .object(object)
    }

    /// Whether a value is of the schema's named type (a schema naming none takes anything).
    /// Whether a document's example keeps its own schema: type, enum, an object's named and other
    /// keys, an array's items, `allOf`, as deep as an example goes. One that does not (Docker's
    /// `Settable: null` for an array, `Status: {"hello": "world"}` for a map of objects) is made
    /// up from the schema instead, so the served body stays valid.
    private func keeps(_ value: JSONValue, _ schema: DocumentNode, depth: Int) -> Bool {
        guard depth < Self.maxDepth, let view = reader.resolve(schema) else { return true }
        guard Self.fits(value, view) else { return false }
        if let allowed = view.enumValues, !allowed.contains(value) { return false }
        // A date-time without its zone (Xero's `2020-12-10T01:22:00.0000000`) breaks its format, as the response check reads it.
        if case .string(let text) = value, let format = view.format, DateFormat.problem(text, format: format) != nil { return false }
        if view.allOf.contains(where: { !keeps(value, $0, depth: depth + 1) }) { return false }
        switch value {
        case .object(let object):
            let named = reader.properties(of: schema) ?? []
            for property in named {
                guard let member = object[property.name] else {
                    if property.required { return false }
                    continue
                }
                if !keeps(member, property.schema, depth: depth + 1) { return false }
            }
            let others = object.members.filter { member in !named.contains { $0.name == member.key } }
            switch view.additionalProperties {
            case .forbidden? where view.hasProperties: return others.isEmpty
            case .schema(let values)?: return others.allSatisfy { keeps($0.value, values, depth: depth + 1) }
            default: return true
            }
        case .array(let elements):
            guard let items = view.items else { return true }
            return elements.allSatisfy { keeps($0, items, depth: depth + 1) }
        default:
            return true
        }
    }

    private static func fits(_ value: JSONValue, _ view: SchemaView) -> Bool {
        guard !view.types.isEmpty else { return true }
        if value == .null { return view.nullable }
        return view.types.contains { type in
            switch (type, value) {
            case ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
                ("object", .object), ("array", .array), ("file", _):
                true
            case ("integer", .double(let number)): number.rounded() == number
            default: false
            }
        }
    }

    /// A value of the schema's type without following anything inside it.
    private mutating func shallow(_ view: SchemaView?) -> JSONValue {
        guard let view else { return .null }
        if let example = (usesSchemaExamples ? view.example : nil) ?? view.defaultValue ?? view.enumValues?.first { return example }
        switch view.type {
        case "string": return .string(Self.string(view))
        case "integer": return integer(view)
        case "number": return number(view)
        case "boolean": return .bool(true)
        case "array": return .array([])
        case "null": return .null
        default: return .object(JSONObject())
        }
    }

    private mutating func integer(_ view: SchemaView) -> JSONValue {
        var low = view.minimum.map { $0.exclusive ? ($0.value + 1).rounded(.down) : $0.value.rounded(.up) }
        var high = view.maximum.map { $0.exclusive ? ($0.value - 1).rounded(.up) : $0.value.rounded(.down) }
        low = clamp(low, view)
        high = clamp(high, view)
        var chosen = max(low ?? 1, 1)
        if let high, chosen > high { chosen = max(low ?? high, high) }
        if let step = view.multipleOf, step.rounded() == step, step >= 1 {
            let up = (chosen / step).rounded(.up) * step
            chosen = high.map { up <= $0 } ?? true ? up : (chosen / step).rounded(.down) * step
        }
        // 2⁶³ is Int.max + 1 as a Double: the end of Int64 is Int.max.
        return .int(chosen >= Self.int64End ? Int.max : chosen <= -Self.int64End ? Int.min : Int(chosen))
    }

    private mutating func number(_ view: SchemaView) -> JSONValue {
        let low = view.minimum, high = view.maximum
        var chosen = 1.5
        if let low, chosen < low.value || (low.exclusive && chosen == low.value) { chosen = low.value + (low.exclusive ? 0.5 : 0) }
        if let high, chosen > high.value || (high.exclusive && chosen == high.value) {
            chosen = low.map { ($0.value + high.value) / 2 } ?? high.value - (high.exclusive ? 0.5 : 0)
        }
        if let step = view.multipleOf {
            let rounded = (chosen / step).rounded(.up) * step
            chosen = high.map { rounded <= $0.value } ?? true ? rounded : (chosen / step).rounded(.down) * step
        }
        return .double(chosen)
    }

    /// A bound beyond Int64 (`maximum: 18446744073709551615`) is kept at Int64's end, with a note.
    private mutating func clamp(_ bound: Double?, _ view: SchemaView) -> Double? {
        guard let bound, abs(bound) > Self.int64End else { return bound }
        note(view, "bound \(bound) is beyond Int64; clamped")
        return bound > 0 ? Self.int64End : -Self.int64End
    }

    /// A bound the made-up value does not keep, once per schema and bound, naming the schema (a JSON pointer).
    private mutating func note(_ view: SchemaView, _ message: String) {
        let note = "\(reader.document.location(view.node)): \(message)"
        if !notes.contains(note) { notes.append(note) }
    }

    /// The most elements (or map keys) a made-up array (or map) gets, and characters a string.
    static let maxElements = 10
    static let maxStringLength = 100_000

    private static let int64End = 9_223_372_036_854_775_808.0

    private mutating func stop(_ reason: String, at schema: String) -> JSONValue? {
        if cut == nil { cut = "\(reason) in \(schema); the rest is left out" }
        return nil
    }

    /// Counts a value the document wrote (an example, a default) or a made-up string.
    private mutating func counted(_ value: JSONValue, alreadyCounted: Bool = false) -> JSONValue {
        var stack = [value]
        while let next = stack.popLast() {
            values += 1
            switch next {
            case .string(let text): textBytes += text.utf8.count
            case .array(let elements): stack += elements
            case .object(let object):
                for (key, member) in object.members {
                    textBytes += key.utf8.count
                    stack.append(member)
                }
            default: break
            }
        }
        if alreadyCounted { values -= 1 }
        return value
    }

    /// A value of the string's format, padded or cut to its length bounds.
    private static func string(_ view: SchemaView) -> String {
        if let pattern = view.pattern, let matching = PatternExample.string(matching: pattern, atLeast: view.minLength ?? 0),
            matching.count <= view.maxLength ?? Int.max
        {
            return matching
        }
        var text = string(format: view.format ?? "")
        if let least = view.minLength, text.count < least { text += String(repeating: "x", count: min(least, maxStringLength) - text.count) }
        if let most = view.maxLength, text.count > most { text = String(text.prefix(most)) }
        return text
    }

    static func string(format: String) -> String {
        switch format {
        case "date": "2024-01-01"
        case "date-time": "2024-01-01T00:00:00Z"
        case "time": "00:00:00Z"
        case "duration": "P1D"
        case "email", "idn-email": "user@example.com"
        case "uuid": "00000000-0000-0000-0000-000000000001"
        case "uri", "url", "iri": "https://example.com"
        case "uri-reference", "iri-reference": "/example"
        case "hostname", "idn-hostname": "example.com"
        case "ipv4": "192.0.2.1"
        case "ipv6": "2001:db8::1"
        case "byte": "c3RyaW5n"
        case "int32", "int64": "1"
        case "regex": ".*"
        case "json-pointer": "/example"
        default: "string"
        }
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
