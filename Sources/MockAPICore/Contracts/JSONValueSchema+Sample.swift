extension JSONValueSchema {
    /// A value the schema allows, made from it alone: an enum's first value, an object with every
    /// required key (and those of the first of its `oneOf` shapes), an array of `minItems` (at least
    /// one) samples, the first of `oneOf`'s shapes.
    /// What a request is sent with where a contract has no example, and the value `verify
    /// --variants` puts where another `oneOf` shape may stand.
    package var sample: JSONValue {
        if let first = enumValues?.first { return first }
        if let first = branches?.schemas.first, type == .any, properties == nil { return first.sample }
        switch type {
        case .string, .any:
            // A string of the format a client may parse it as (`UUID`, `URL`, a date).
            return switch format {
            case "date-time": "2024-05-01T12:00:00Z"
            case "date": "2024-05-01"
            case "uuid": "3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f"
            case "uri", "url": "https://example.com/"
            case "email": "user@example.com"
            case "byte": "ZXhhbXBsZQ=="
            default: "example"
            }
        case .int: return 1
        case .number: return .double(1.5)
        case .bool: return true
        case .null: return .null
        case .object:
            var object = properties.map(Self.object)?.objectValue ?? JSONObject()
            // Keys every object has, then the first option's (a `oneOf` body: its shared keys and one shape).
            if let first = branches?.schemas.first?.sample.objectValue {
                for (key, value) in first.members { object[key] = value }
            }
            return .object(object)
        case .array:
            let count = max(1, minItems ?? 0)
            return .array(items.map { Array(repeating: $0.sample, count: count) } ?? Array(repeating: 1, count: minItems ?? 0))
        }
    }

    private static func object(_ keys: [JSONKeyExpectation]) -> JSONValue {
        .object(JSONObject(keys.filter(\.required).map { ($0.key, $0.schema.sample) }))
    }
}
