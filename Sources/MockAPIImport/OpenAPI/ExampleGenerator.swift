import MockAPICore
import OpenAPIKit

/// A response body made up from a schema when the document gives no example.
///
/// Deterministic, so re-importing gives the same fixtures: the schema's own example, default
/// or first enum value when it has one, otherwise `"string"`, `1`, `1.5`, `true`, one array
/// element, and every property of an object. Recursion through `$ref`s stops at the second
/// visit (the property is left out, an array is empty).
struct ExampleGenerator {
    let reader: SchemaReader
    /// Leave out `writeOnly` properties (responses) or `readOnly` ones (requests).
    var forResponse = true

    func example(for schema: JSONSchema) -> JSONValue {
        value(for: schema, visiting: []) ?? .null
    }

    private func value(for schema: JSONSchema, visiting: Set<String>) -> JSONValue? {
        var visiting = visiting
        if let name = reader.referenceName(schema) {
            guard visiting.insert(name).inserted, visiting.count < 12 else { return nil }
        }
        guard let resolved = reader.resolve(schema) else { return .null }
        if let example = resolved.examples.first ?? schema.examples.first { return JSONValue(example) }
        if let fallback = resolved.defaultValue ?? resolved.allowedValues?.first { return JSONValue(fallback) }
        switch resolved.value {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let integer):
            return .int(integer.minimum.map { max($0.value, 1) } ?? 1)
        case .number(_, let number):
            return .double(number.minimum.map { max($0.value, 1.5) } ?? 1.5)
        case .string(let core, _): return .string(Self.string(format: core.format.rawValue))
        case .array(_, let array):
            guard let items = array.items, let element = value(for: items, visiting: visiting) else { return .array([]) }
            return .array([element])
        case .object, .all:
            guard let properties = reader.properties(of: resolved) else {
                if case .all(let parts, _) = resolved.value, let first = parts.first { return value(for: first, visiting: visiting) }
                return .object(JSONObject())
            }
            var object = JSONObject()
            for property in properties {
                let resolvedProperty = reader.resolve(property.schema)
                if forResponse ? resolvedProperty?.writeOnly == true : resolvedProperty?.readOnly == true { continue }
                if let element = value(for: property.schema, visiting: visiting) { object[property.name] = element }
            }
            return .object(object)
        case .one(let options, _), .any(let options, _):
            return options.first.flatMap { value(for: $0, visiting: visiting) } ?? .null
        case .not, .reference, .fragment:
            return .null
        }
    }

    private static func string(format: String) -> String {
        switch format {
        case "date": "2024-01-01"
        case "date-time": "2024-01-01T00:00:00Z"
        case "time": "00:00:00Z"
        case "email": "user@example.com"
        case "uuid": "00000000-0000-0000-0000-000000000001"
        case "uri", "url", "iri": "https://example.com"
        case "hostname": "example.com"
        case "ipv4": "192.0.2.1"
        case "ipv6": "2001:db8::1"
        default: "string"
        }
    }
}
