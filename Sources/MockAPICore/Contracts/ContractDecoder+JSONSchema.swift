/// A JSON body's keys (`json`) and the schema of each value: type, enum, properties, items.
extension ContractDecoder {
    mutating func decodeJSONKeys(_ value: JSONValue, at path: String) -> [JSONKeyExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, JSONSchemaKey.self, at: here)
            return JSONKeyExpectation(key: key, required: optionalBool(spec, "required", at: here) ?? true, schema: decodeSchema(spec, at: here))
        }
    }

    /// `type`, `enum`, `properties` (an object's keys, as in `json`), `items` (an array's elements),
    /// `minItems`, `format`, and `oneOf`/`anyOf` (the shapes the value may have, each a schema).
    mutating func decodeSchema(_ spec: JSONObject, at path: String) -> JSONValueSchema {
        var type = enumValue(spec, "type", JSONValueType.self, at: path) ?? .any
        var enumValues: [JSONValue]?
        if let values = spec["enum"] {
            if case .array(let elements) = values, !elements.isEmpty {
                enumValues = elements
                for (offset, element) in elements.enumerated() where !type.accepts(element) {
                    problem(at: "\(path).enum[\(offset)]", "\(element.serialized) is not a valid \(type.rawValue)")
                }
            } else {
                problem(at: "\(path).enum", "expected a non-empty array of allowed values, found \(values.serialized)")
            }
        }
        let properties = spec["properties"].map { decodeJSONKeys($0, at: "\(path).properties") }
        var items: JSONValueSchema?
        if let itemSpec = spec["items"], let itemObject = expectObject(itemSpec, at: "\(path).items") {
            checkKeys(itemObject, allowed: JSONSchemaKey.itemNames, at: "\(path).items")
            items = decodeSchema(itemObject, at: "\(path).items")
        }
        // `properties` implies an object and `items` an array; any other declared type is a contradiction.
        for (key, implied) in [("properties", JSONValueType.object), ("items", .array)] where spec[key] != nil {
            if type == .any {
                type = implied
            } else if type != implied {
                problem(at: path, "\"\(key)\" describes \(implied == .object ? "an object" : "an array"), but \"type\" is \"\(type.rawValue)\"")
            }
        }
        let otherKeys = optionalBool(spec, "otherKeys", at: path) ?? false
        let nullable = optionalBool(spec, "nullable", at: path) ?? false
        if nullable, type == .any || type == .null { problem(at: "\(path).nullable", "\"\(type.rawValue)\" already takes null; give the type null is allowed beside") }
        let format = optionalString(spec, "format", at: path)
        if format != nil, ![.string, .int, .number, .any].contains(type) {
            problem(at: "\(path).format", "describes a string or a number, but \"type\" is \"\(type.rawValue)\"")
        }
        var minItems: Int?
        if let value = spec["minItems"] {
            if case .int(let n) = value, n >= 0 { minItems = n } else { problem(at: "\(path).minItems", "expected a count of 0 or more, found \(value.serialized)") }
            if type != .array { problem(at: "\(path).minItems", "applies to an array, but \"type\" is \"\(type.rawValue)\"") }
        }
        let branches = decodeOptions(spec, at: path)
        if otherKeys, properties == nil { problem(at: "\(path).otherKeys", "applies to an object's \"properties\"; without them the object is not checked at all") }
        return JSONValueSchema(
            type: type, enumValues: enumValues, properties: properties, otherKeys: otherKeys, items: items, nullable: nullable, format: format,
            minItems: minItems, oneOf: branches.oneOf, anyOf: branches.anyOf)
    }

    /// `oneOf` and `anyOf` of a schema or of `request.body`: each a non-empty list of schemas.
    mutating func decodeOptions(_ spec: JSONObject, at path: String) -> (oneOf: [JSONValueSchema]?, anyOf: [JSONValueSchema]?) {
        var branches: [String: [JSONValueSchema]] = [:]
        for key in [JSONSchemaKey.oneOf, .anyOf] {
            guard let value = spec[key.rawValue] else { continue }
            guard case .array(let options) = value, !options.isEmpty else {
                problem(at: "\(path).\(key.rawValue)", "expected a non-empty array of schemas, found \(value.serialized)")
                continue
            }
            branches[key.rawValue] = options.enumerated().compactMap { offset, option in
                let here = "\(path).\(key.rawValue)[\(offset)]"
                guard let object = expectObject(option, at: here) else { return nil }
                checkKeys(object, allowed: JSONSchemaKey.itemNames, at: here)
                return decodeSchema(object, at: here)
            }
        }
        return (branches["oneOf"], branches["anyOf"])
    }
}

/// One of `request.json` (and of a `properties`); an `items` schema, and a response's `schema`, have all but `required`.
package enum JSONSchemaKey: String, FormatKey {
    case type
    case required
    case nullable
    case `enum`
    case properties
    case otherKeys
    case items
    case minItems
    case format
    case oneOf
    case anyOf
}

extension JSONSchemaKey {
    /// An `items` schema's keys: an array element is not required or optional.
    package static let itemNames = names.filter { $0 != JSONSchemaKey.required.rawValue }
}
