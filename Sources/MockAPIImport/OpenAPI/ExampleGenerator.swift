import MockAPICore
import OpenAPIKit

/// A response body made up from a schema when the document gives no example.
///
/// Deterministic, so re-importing gives the same fixtures: the schema's own example, default
/// or first enum value when it has one, otherwise `"string"`, `1`, `1.5`, `true`, one array
/// element, and every property of an object. Recursion through `$ref`s stops at the second
/// visit (the property is left out, an array is empty).
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

    /// Why the example is not whole, naming the schema (a JSON pointer) where it was cut; nil when whole.
    private(set) var cut: String?
    private var values = 0
    private var textBytes = 0

    init(reader: SchemaReader, forResponse: Bool = true) {
        self.reader = reader
        self.forResponse = forResponse
    }

    mutating func example(for schema: JSONSchema) -> JSONValue {
        value(for: schema, visiting: [], depth: 0, within: reader.referenceName(schema) ?? "the inline schema") ?? .null
    }

    /// `within`: the innermost `$ref` on the way here, to name where a cut happened.
    private mutating func value(for schema: JSONSchema, visiting: Set<String>, depth: Int, within: String) -> JSONValue? {
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
        guard let resolved = reader.resolve(schema) else { return .null }
        if let example = resolved.examples.first ?? schema.examples.first { return counted(JSONValue(example)) }
        if let fallback = resolved.defaultValue ?? resolved.allowedValues?.first { return counted(JSONValue(fallback)) }
        values += 1
        switch resolved.value {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let integer):
            return .int(integer.minimum.map { max($0.value, 1) } ?? 1)
        case .number(_, let number):
            return .double(number.minimum.map { max($0.value, 1.5) } ?? 1.5)
        case .string(let core, _): return counted(.string(Self.string(format: core.format.rawValue)), alreadyCounted: true)
        case .array(_, let array):
            guard let items = array.items, let element = value(for: items, visiting: visiting, depth: depth + 1, within: within) else { return .array([]) }
            return .array([element])
        case .object, .all:
            guard let properties = reader.properties(of: resolved) else {
                if case .all(let parts, _) = resolved.value, let first = parts.first {
                    return value(for: first, visiting: visiting, depth: depth + 1, within: within)
                }
                return .object(JSONObject())
            }
            var object = JSONObject()
            for property in properties {
                let resolvedProperty = reader.resolve(property.schema)
                if forResponse ? resolvedProperty?.writeOnly == true : resolvedProperty?.readOnly == true { continue }
                if let element = value(for: property.schema, visiting: visiting, depth: depth + 1, within: within) {
                    object[property.name] = element
                    textBytes += property.name.utf8.count
                }
            }
            return .object(object)
        case .one(let options, _), .any(let options, _):
            return options.first.flatMap { value(for: $0, visiting: visiting, depth: depth + 1, within: within) } ?? .null
        case .not, .reference, .fragment:
            return .null
        }
    }

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
