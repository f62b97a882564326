import MockAPICore

/// Answers the questions the importer asks of a schema (its type, its object properties, whether
/// it is a file), following `$ref`s through the document and merging `allOf`.
///
/// References are followed one level at a time, never dereferenced up front: recursive schemas
/// (a category with child categories) are common, and a full dereference refuses them.
struct SchemaReader {
    let document: OpenAPIDocument

    /// The schema a reference points to (through chains of references); nil when it cannot be found.
    func resolve(_ schema: DocumentNode) -> SchemaView? {
        document.resolve(schema).map(SchemaView.init)
    }

    /// The name of a `$ref` schema, used to stop recursion.
    func referenceName(_ schema: DocumentNode) -> String? {
        document.referenceName(schema)
    }

    struct Property {
        var name: String
        var schema: DocumentNode
        var required: Bool
    }

    /// An object's properties in document order with their required flags, `allOf` parts merged;
    /// nil when the schema is not an object with named properties.
    func properties(of schema: DocumentNode) -> [Property]? {
        var merged: Set<String> = []
        return properties(of: schema, depth: 0, merged: &merged)
    }

    /// `merged`: `allOf` parts already merged, so one merged again adds nothing (without it,
    /// schemas whose `allOf` names the next one twice take 2^depth steps).
    private func properties(of schema: DocumentNode, depth: Int, merged visited: inout Set<String>) -> [Property]? {
        guard depth < 16, let view = resolve(schema) else { return nil }
        var result: [Property] = []
        var named = view.hasProperties
        if named {
            let required = view.required
            result = view.properties.map { Property(name: $0.name, schema: $0.schema, required: required.contains($0.name)) }
        } else if view.type == "object", view.allOf.isEmpty {
            return nil
        }
        var requiredByParts: Set<String> = []
        for part in view.allOf {
            if let name = referenceName(part), !visited.insert(name).inserted { continue }
            guard let more = properties(of: part, depth: depth + 1, merged: &visited) else {
                // A part with no properties of its own (a description, `required: [a]`) adds its required names.
                guard let partView = resolve(part), partView.type == nil || partView.type == "object", partView.oneOf.isEmpty, partView.anyOf.isEmpty else { return nil }
                requiredByParts.formUnion(partView.required)
                continue
            }
            named = true
            for property in more {
                if let index = result.firstIndex(where: { $0.name == property.name }) {
                    result[index].required = result[index].required || property.required
                } else {
                    result.append(property)
                }
            }
            // A part's `required` may name keys another part declares (`allOf: [{$ref: Base}, {required: [kind], properties: {name}}]`).
            requiredByParts.formUnion(resolve(part)?.required ?? [])
        }
        // Required names written beside an allOf, or in any of its parts, apply to the merged properties.
        let required = view.required.union(requiredByParts)
        for index in result.indices where required.contains(result[index].name) { result[index].required = true }
        return named ? result : nil
    }

    /// Whether an object schema also admits keys it does not name: unless `additionalProperties: false`
    /// (JSON Schema's default is open), through `allOf` parts too.
    func admitsOtherKeys(_ schema: DocumentNode) -> Bool {
        var seen: Set<String> = []
        return admitsOtherKeys(schema, depth: 0, seen: &seen)
    }

    /// `seen`: `allOf` parts already asked (schemas whose `allOf` names the next one twice would take 2^depth steps).
    private func admitsOtherKeys(_ schema: DocumentNode, depth: Int, seen: inout Set<String>) -> Bool {
        if let name = referenceName(schema), !seen.insert(name).inserted { return true }
        guard depth < 16, let view = resolve(schema) else { return true }
        if case .forbidden? = view.additionalProperties { return false }
        if view.node["unevaluatedProperties"]?.bool == false { return false }
        for part in view.allOf where !admitsOtherKeys(part, depth: depth + 1, seen: &seen) { return false }
        return true
    }

    /// Whether a schema names no `type`, nor do its `allOf` parts or `oneOf`/`anyOf` options: JSON
    /// Schema then takes a value of any type, its `properties` applying to objects only.
    func namesNoType(_ schema: DocumentNode) -> Bool {
        guard let view = resolve(schema), view.types.isEmpty, !view.isOnlyNull else { return false }
        return (view.allOf + view.oneOf + view.anyOf).allSatisfy { resolve($0)?.types.isEmpty ?? true }
    }

    /// Whether an object is a free-form map: no named properties, other keys allowed.
    func isFreeFormMap(_ schema: DocumentNode) -> Bool {
        guard let view = resolve(schema), view.type == "object" || view.additionalProperties != nil else { return false }
        return properties(of: schema) == nil && admitsOtherKeys(schema)
    }

    /// The contract type of a JSON body value: a nullable value is `any`, since a contract names one type.
    func valueType(_ schema: DocumentNode) -> JSONValueType {
        guard let view = resolve(schema) else { return .any }
        switch view.type {
        case "null": return .null
        case "boolean": return .bool
        case "integer": return .int
        case "number": return .number
        case "string": return .string
        case "object": return .object
        case "array": return .array
        default: return view.allOf.isEmpty ? .any : (properties(of: schema) != nil ? .object : .any)
        }
    }

    /// The contract type of a query value.
    func queryType(_ schema: DocumentNode, depth: Int = 0, budget: SchemaWalkBudget = SchemaWalkBudget()) -> QueryValueType? {
        // `oneOf` options that lead back to themselves: past 16 levels (or past the budget, when they fan out), text.
        guard depth < 16, budget.take(at: referenceName(schema) ?? schema.pointer) else { return .string }
        guard let view = resolve(schema) else { return .string }
        switch view.type {
        case "boolean": return .bool
        case "integer": return .int
        case "number": return .number
        case "string", "null": return .string
        case "object", "array": return nil
        default:
            let options = view.oneOf + view.anyOf + view.allOf
            guard !options.isEmpty else { return .string }
            let types = Set(options.compactMap { queryType($0, depth: depth + 1, budget: budget) })
            return types.count == 1 ? types.first : .string
        }
    }

    /// The items of an array schema (an empty schema when it names none); nil for anything else.
    func arrayItems(_ schema: DocumentNode) -> DocumentNode? {
        guard let view = resolve(schema), view.type == "array" else { return nil }
        return view.items ?? DocumentNode(value: .object(JSONObject()), file: view.node.file, pointer: view.node.pointer + "/items")
    }

    /// Whether a value may be an array: its type, one of its types, or one of its `oneOf`/`anyOf` options.
    func mayBeArray(_ schema: DocumentNode) -> Bool {
        var seen: Set<String> = []
        return mayBeArray(schema, depth: 0, seen: &seen)
    }

    private func mayBeArray(_ schema: DocumentNode, depth: Int, seen: inout Set<String>) -> Bool {
        if let name = referenceName(schema), !seen.insert(name).inserted { return false }
        guard depth < 8, let view = resolve(schema) else { return false }
        if view.type == "array" || view.types.contains("array") { return true }
        for option in view.oneOf + view.anyOf + view.allOf where mayBeArray(option, depth: depth + 1, seen: &seen) { return true }
        return false
    }

    /// Whether a multipart property is a file.
    func isFile(_ schema: DocumentNode) -> Bool {
        resolve(schema)?.isFile == true
    }

    /// The media type a 3.1 file property declares (`contentMediaType: image/png`).
    func contentMediaType(_ schema: DocumentNode) -> String? {
        resolve(schema)?.contentMediaType
    }

    /// Enum values of a scalar as query text (`[1, 2]` → `["1", "2"]`); nil when there is no enum or one is not a scalar.
    func queryEnum(_ schema: DocumentNode) -> [String]? {
        guard let values = resolve(schema)?.enumValues else { return nil }
        var texts: [String] = []
        for value in values {
            switch value {
            case .string(let text): texts.append(text)
            case .int(let number): texts.append(String(number))
            case .double(let number): texts.append(String(number))
            case .bool(let flag): texts.append(String(flag))
            case .null: continue
            default: return nil
            }
        }
        return texts.isEmpty ? nil : texts
    }
}
