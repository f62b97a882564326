import MockAPICore

extension SchemaReader {
    /// Nesting a contract's value schema follows; deeper values are left unchecked.
    static let maxValueSchemaDepth = 8

    /// What a request's JSON value must be, as a contract says it: its type, its enum, an object's
    /// named keys (through `allOf`), an array's items. A `$ref` met a second time on the way down
    /// (a recursive schema) is left unchecked there. `readOnly` keys are left out: a client does not send them.
    func valueSchema(_ schema: DocumentNode) -> JSONValueSchema {
        valueSchema(schema, visiting: [], depth: 0)
    }

    private func valueSchema(_ schema: DocumentNode, visiting: Set<String>, depth: Int) -> JSONValueSchema {
        var visiting = visiting
        if let name = referenceName(schema), !visiting.insert(name).inserted { return JSONValueSchema() }
        guard depth < Self.maxValueSchemaDepth, let view = resolve(schema) else { return JSONValueSchema() }
        let type = valueType(schema)
        var enumValues = view.enumValues
        if view.nullable, let values = enumValues, !values.contains(.null) { enumValues = values + [.null] }
        var properties: [JSONKeyExpectation]?
        var items: JSONValueSchema?
        if type == .object || (type == .any && !view.allOf.isEmpty) {
            properties = objectKeys(schema, visiting: visiting, depth: depth)
        } else if type == .array, let element = view.items {
            items = valueSchema(element, visiting: visiting, depth: depth + 1)
        }
        return JSONValueSchema(type: type, enumValues: enumValues, properties: properties, items: items)
    }

    /// An object's keys, or nil (unchecked) when it names none or is a free-form map.
    func objectKeys(_ schema: DocumentNode, visiting: Set<String> = [], depth: Int = 0) -> [JSONKeyExpectation]? {
        guard let named = properties(of: schema), !named.isEmpty, !isMap(schema) else { return nil }
        return named.compactMap { property in
            if resolve(property.schema)?.readOnly == true { return nil }
            return JSONKeyExpectation(key: property.name, required: property.required,
                                      schema: valueSchema(property.schema, visiting: visiting, depth: depth + 1))
        }
    }

    /// A map whose values follow a schema (`additionalProperties: {…}`): its keys are data, not names.
    func isMap(_ schema: DocumentNode) -> Bool {
        guard let view = resolve(schema) else { return false }
        if case .schema? = view.additionalProperties { return true }
        return false
    }
}
