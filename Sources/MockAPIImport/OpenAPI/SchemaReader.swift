import MockAPICore
import OpenAPIKit

/// Answers the questions the importer asks of a schema (its type, its object properties, whether
/// it is a file), following `$ref`s through the document's components and merging `allOf`.
///
/// References are followed one level at a time, never dereferenced up front: recursive schemas
/// (a category with child categories) are common, and a full dereference refuses them.
struct SchemaReader {
    let components: OpenAPI.Components

    /// The schema a reference points to (through chains of references); nil when it cannot be found.
    func resolve(_ schema: JSONSchema) -> JSONSchema? {
        try? components.lookup(schema)
    }

    /// The component name of a `$ref` schema, used to stop recursion.
    func referenceName(_ schema: JSONSchema) -> String? {
        guard case .reference(let reference, _) = schema.value else { return nil }
        return reference.absoluteString
    }

    struct Property {
        var name: String
        var schema: JSONSchema
        var required: Bool
    }

    /// An object's properties in document order with their required flags, `allOf` parts merged;
    /// nil when the schema is not an object with named properties.
    func properties(of schema: JSONSchema) -> [Property]? {
        var merged: Set<String> = []
        return properties(of: schema, depth: 0, merged: &merged)
    }

    /// `merged`: `allOf` parts already merged, so one merged again adds nothing (without it,
    /// schemas whose `allOf` names the next one twice take 2^depth steps).
    private func properties(of schema: JSONSchema, depth: Int, merged visited: inout Set<String>) -> [Property]? {
        guard depth < 16, let schema = resolve(schema) else { return nil }
        switch schema.value {
        case .object(_, let object):
            // OpenAPIKit keeps "required" on each property schema, read before its $ref is followed.
            return object.properties.map { Property(name: $0.key, schema: $0.value, required: $0.value.required) }
        case .all(let parts, _):
            var merged: [Property] = []
            for part in parts {
                if let name = referenceName(part), !visited.insert(name).inserted { continue }
                guard let more = properties(of: part, depth: depth + 1, merged: &visited) else {
                    if case .fragment = resolve(part)?.value { continue }   // e.g. a description-only fragment
                    return nil
                }
                for property in more {
                    if let index = merged.firstIndex(where: { $0.name == property.name }) {
                        merged[index].required = merged[index].required || property.required
                    } else {
                        merged.append(property)
                    }
                }
            }
            return merged
        default:
            return nil
        }
    }

    /// Whether an object schema also admits keys it does not name (a free-form map).
    func admitsOtherKeys(_ schema: JSONSchema) -> Bool {
        guard let schema = resolve(schema), case .object(_, let object) = schema.value else { return false }
        switch object.additionalProperties {
        case .a(let allowed)?: return allowed && object.properties.isEmpty
        case .b?: return true
        case nil: return object.properties.isEmpty
        }
    }

    /// The contract type of a JSON body value: a nullable value is `any`, since a contract names one type.
    func valueType(_ schema: JSONSchema) -> JSONValueType {
        guard let resolved = resolve(schema), !schema.nullable, !resolved.nullable else { return .any }
        switch resolved.value {
        case .null: return .null
        case .boolean: return .bool
        case .integer: return .int
        case .number: return .number
        case .string: return .string
        case .object: return .object
        case .array: return .array
        case .all: return properties(of: resolved) != nil ? .object : .any
        case .one, .any, .not, .reference, .fragment: return .any
        }
    }

    /// The contract type of a query value.
    func queryType(_ schema: JSONSchema, depth: Int = 0) -> QueryValueType? {
        // `oneOf` options that lead back to themselves: past 16 levels, text.
        guard depth < 16 else { return .string }
        guard let resolved = resolve(schema) else { return nil }
        switch resolved.value {
        case .boolean: return .bool
        case .integer: return .int
        case .number: return .number
        case .string, .fragment: return .string
        case .one(let options, _), .any(let options, _):
            let types = Set(options.compactMap { queryType($0, depth: depth + 1) })
            return types.count == 1 ? types.first : .string
        default: return nil
        }
    }

    /// The items of an array schema.
    func arrayItems(_ schema: JSONSchema) -> JSONSchema? {
        guard let resolved = resolve(schema), case .array(_, let array) = resolved.value else { return nil }
        return array.items ?? .fragment(.init())
    }

    /// Whether a multipart property is a file: `format: binary` (3.0), `contentEncoding` or
    /// `contentMediaType` (3.1).
    func isFile(_ schema: JSONSchema) -> Bool {
        guard let resolved = resolve(schema), case .string(let core, let string) = resolved.value else { return false }
        return core.format.rawValue == "binary" || string.contentEncoding == .binary || string.contentMediaType != nil
    }

    /// The media type a 3.1 file property declares (`contentMediaType: image/png`).
    func contentMediaType(_ schema: JSONSchema) -> String? {
        guard let resolved = resolve(schema), case .string(_, let string) = resolved.value else { return nil }
        return string.contentMediaType?.typeAndSubtype
    }
}
