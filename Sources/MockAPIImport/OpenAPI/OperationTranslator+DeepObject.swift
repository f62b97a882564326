import MockAPICore

/// `style: deepObject` query parameters (`created[gt]=1`, `expand[0]=a`, `metadata[key]=v`) as query
/// keys with nested parts.
extension OperationTranslator {
    /// The key for a deepObject parameter whose schema is an object or a list (or may be one, in an
    /// `anyOf`); nil for a scalar one, read as any other parameter. Values take the one scalar type
    /// every leaf shares (else text); the first parts are the object's property names when it is
    /// closed (`additionalProperties: false`), else any; the bare key also comes when the schema
    /// allows a scalar beside the object, and always for a list (sent `expand=a&expand=b` too).
    mutating func deepObjectQuery(_ parameter: DocumentNode, name: String, schema: DocumentNode) -> ContractDraft.Query? {
        let branches = optionBranches(schema)
        let objects = branches.filter { isObjectSchema($0) }
        let lists = branches.filter { reader.arrayItems($0) != nil }
        guard !objects.isEmpty || !lists.isEmpty else { return nil }
        let scalars = branches.filter { !isObjectSchema($0) && reader.arrayItems($0) == nil }
        var leaves: [DocumentNode?] = []
        for branch in branches { collectLeaves(branch, into: &leaves, depth: 0) }
        let types = Set(leaves.map { $0.flatMap { reader.queryType($0) } ?? .string })
        var query = ContractDraft.Query(name: name, required: parameter["required"]?.bool == true)
        query.type = types.count == 1 ? types.first! : types == [.int, .number] ? .number : .string
        // One list of allowed values for every leaf (an exported contract's `enum`) is kept.
        let enums = leaves.map { $0.flatMap { reader.queryEnum($0) } }
        if let first = enums.first, let values = first, enums.allSatisfy({ $0 == values }) { query.enumValues = values }
        if lists.isEmpty {
            let closed = objects.allSatisfy { !reader.admitsOtherKeys($0) }
            let names = objects.flatMap { reader.properties(of: $0)?.map(\.name) ?? [] }
            query.nested = .init(keys: closed && !names.isEmpty ? names : nil, plain: !scalars.isEmpty)
        } else {
            query.arrayStyle = .repeated
            query.nested = .init()
        }
        // An empty object or list is sent as nothing at all, so the key can only be required when it cannot be empty.
        let canBeEmpty =
            objects.contains { (reader.resolve($0)?.minProperties ?? 0) == 0 && !(reader.properties(of: $0)?.contains(where: \.required) ?? false) }
            || lists.contains { (reader.resolve($0)?.minItems ?? 0) == 0 }
        if query.required, canBeEmpty {
            query.required = false
            warn("deepObject query", at: parameter, "query parameter \"\(name)\" is required, but its empty value is sent as no key at all; checked as optional")
        }
        return query
    }

    /// The options of an `anyOf`/`oneOf`, or the schema itself.
    private func optionBranches(_ schema: DocumentNode) -> [DocumentNode] {
        guard let view = reader.resolve(schema) else { return [schema] }
        let options = view.anyOf + view.oneOf
        return options.isEmpty ? [schema] : options
    }

    private func isObjectSchema(_ schema: DocumentNode) -> Bool {
        guard let view = reader.resolve(schema) else { return false }
        return view.type == "object" || view.hasProperties || view.additionalProperties != nil
    }

    /// The schema of every scalar a value of `schema` may hold, at any depth; nil for any text
    /// (`additionalProperties: true`).
    private func collectLeaves(_ schema: DocumentNode, into leaves: inout [DocumentNode?], depth: Int) {
        guard depth < 8, let view = reader.resolve(schema) else { leaves.append(nil); return }
        if let items = reader.arrayItems(schema) { return collectLeaves(items, into: &leaves, depth: depth + 1) }
        if isObjectSchema(schema) {
            for property in reader.properties(of: schema) ?? [] { collectLeaves(property.schema, into: &leaves, depth: depth + 1) }
            switch view.additionalProperties {
            case .schema(let values)?: collectLeaves(values, into: &leaves, depth: depth + 1)
            case .allowed?: leaves.append(nil)
            case .forbidden?, nil: if view.properties.isEmpty { leaves.append(nil) }
            }
            return
        }
        let options = view.anyOf + view.oneOf
        if !options.isEmpty, view.type == nil {
            for option in options { collectLeaves(option, into: &leaves, depth: depth + 1) }
            return
        }
        leaves.append(schema)
    }
}
