/// A request's `query` keys (a contract's or `_defaults.json`'s): type, list style, nested parts.
extension ContractDecoder {
    mutating func decodeQuery(_ value: JSONValue, at path: String) -> [QueryExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            if key.hasSuffix("[]") { problem(at: here, "name the key without \"[]\" and set \"array\": true") }
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, QueryKey.self, at: here)
            var expectation = QueryExpectation(name: key)
            if let type = enumValue(spec, "type", QueryValueType.self, at: here) { expectation.type = type }
            expectation.required = optionalBool(spec, "required", at: here) ?? true
            expectation.arrayStyle = decodeArrayStyle(spec["array"], at: "\(here).array")
            expectation.repeated = optionalBool(spec, "repeated", at: here) ?? false
            expectation.enumValues = spec["enum"].flatMap { scalarStrings($0, at: "\(here).enum") }
            if let allowed = expectation.enumValues, let bad = allowed.first(where: { !expectation.type.accepts($0) }) {
                problem(at: "\(here).enum", "\"\(bad)\" is not a valid \(expectation.type.rawValue)")
            }
            expectation.nested = decodeNestedParts(spec, arrayStyle: expectation.arrayStyle, at: here)
            return expectation
        }
    }

    /// `"nested": true` (any parts) or `["gt", "lt"]` (those first parts), and `"plain": true` (the bare key too).
    mutating func decodeNestedParts(_ spec: JSONObject, arrayStyle: QueryExpectation.ArrayStyle?, at path: String) -> QueryExpectation.NestedParts? {
        let array = arrayStyle != nil
        let plain = optionalBool(spec, "plain", at: path) ?? false
        var nested: QueryExpectation.NestedParts?
        switch spec["nested"] {
        case nil, .bool(false)?: break
        case .bool(true)?: nested = .init()
        case .array(let elements)? where !elements.isEmpty:
            guard let keys = stringArray(.array(elements), at: "\(path).nested") else { break }
            if array { problem(at: "\(path).nested", "a list's parts are its positions (\(path.split(separator: ".").last ?? "")[0]=…): write \"nested\": true") }
            if let bad = keys.first(where: { $0.isEmpty || $0.contains("[") || $0.contains("]") }) {
                problem(at: "\(path).nested", "\"\(bad)\" is not a part name (no brackets, not empty)")
            }
            nested = .init(keys: keys)
        case let other?:
            problem(at: "\(path).nested", "expected true or a non-empty array of part names, found \(other.serialized)")
        }
        if plain, nested == nil { problem(at: "\(path).plain", "applies to a key with \"nested\" parts") }
        if plain, array { problem(at: "\(path).plain", "a list always takes its bare form as \"array\" says; remove \"plain\"") }
        if nested != nil, let arrayStyle, arrayStyle != .repeated {
            problem(at: "\(path).array", "a list with nested parts takes its bare form repeated (a=1&a=2): write \"array\": \"repeated\", not \"\(arrayStyle.rawValue)\"")
        }
        nested?.plain = plain && !array
        return nested
    }

    /// `"array": true` (brackets, as before styles existed), `"brackets"`, `"repeated"` or `"comma"`.
    mutating func decodeArrayStyle(_ value: JSONValue?, at path: String) -> QueryExpectation.ArrayStyle? {
        switch value {
        case nil, .bool(false)?: return nil
        case .bool(true)?: return .brackets
        case .string(let text)?:
            if let style = QueryExpectation.ArrayStyle(rawValue: text) { return style }
            let known = QueryExpectation.ArrayStyle.allCases.map(\.rawValue)
            let guess = Self.nearest(text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
            problem(at: path, "unknown array style \"\(text)\" (\(guess)known: true, \(known.joined(separator: ", ")))")
        case let other?:
            problem(at: path, "expected true, false or a style (\"brackets\", \"repeated\", \"comma\"), found \(other.typeName)")
        }
        return nil
    }
}

/// One of `request.query` (or `_defaults.json`'s `query`).
package enum QueryKey: String, FormatKey {
    case type
    case required
    case array
    case repeated
    case `enum`
    case nested
    case plain
}
