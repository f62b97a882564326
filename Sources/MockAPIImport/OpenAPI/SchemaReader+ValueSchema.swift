import MockAPICore

extension SchemaReader {
    /// Nesting a contract's value schema follows; deeper values are left unchecked.
    static let maxValueSchemaDepth = 8

    /// What a request's JSON value must be, as a contract says it: its type, its enum, an object's
    /// named keys (through `allOf`), an array's items. A `$ref` met a second time on the way down
    /// (a recursive schema) is left unchecked there. `readOnly` keys are left out: a client does not send them.
    /// `budget`: schema nodes the walk may visit; past it a value is left unchecked and the budget names where.
    func valueSchema(_ schema: DocumentNode, budget: SchemaWalkBudget = SchemaWalkBudget()) -> JSONValueSchema {
        valueSchema(schema, visiting: [], depth: 0, budget: budget)
    }

    /// What a response body may be, as a response's `schema` says it: as `valueSchema`, but with
    /// `readOnly` keys kept and `writeOnly` ones left out (a server sends the one, not the other),
    /// and each value's `format` and an array's `minItems`, which say which rare answers are legal.
    func responseShape(_ schema: DocumentNode, budget: SchemaWalkBudget = SchemaWalkBudget()) -> JSONValueSchema {
        valueSchema(schema, visiting: [], depth: 0, budget: budget, response: true)
    }

    private func valueSchema(
        _ schema: DocumentNode, visiting: Set<String>, depth: Int, budget: SchemaWalkBudget, response: Bool = false
    ) -> JSONValueSchema {
        var visiting = visiting
        if let name = referenceName(schema), !visiting.insert(name).inserted { return JSONValueSchema() }
        guard depth < Self.maxValueSchemaDepth, budget.take(at: referenceName(schema) ?? schema.pointer), let view = resolve(schema) else {
            return JSONValueSchema()
        }
        let type = valueType(schema)
        var enumValues = view.enumValues
        // `null` besides a type (3.0 `nullable`, 3.1 `[type, "null"]`); `any` and `null` already take it.
        // A reference can say it beside `$ref` (Moby's `EndpointConfig: {$ref, x-nullable: true}`),
        // which the schema it points to does not.
        let admitsNull = view.nullable || (referenceName(schema) != nil && SchemaView(schema).nullable)
        let nullable = admitsNull && type != .any && type != .null
        if admitsNull, !nullable, let values = enumValues, !values.contains(.null) { enumValues = values + [.null] }
        // The flag says null is allowed; an enum of the type must not list it (nor be left empty).
        if nullable, let values = enumValues { enumValues = values.contains(.null) ? values.filter { $0 != .null } : values }
        if enumValues?.isEmpty == true { enumValues = nil }
        // `properties` or `items` without a `type`: JSON Schema applies them to objects or arrays
        // only and takes a value of any other type. A contract's keys or items imply the type, so
        // such a value is left unchecked.
        if view.types.isEmpty, !view.isOnlyNull, view.allOf.isEmpty, view.type == "object" || view.type == "array" {
            return JSONValueSchema(type: .any, enumValues: enumValues)
        }
        var properties: [JSONKeyExpectation]?
        var items: JSONValueSchema?
        var otherKeys = false
        if type == .object || (type == .any && !view.allOf.isEmpty) {
            properties = objectKeys(schema, visiting: visiting, depth: depth, budget: budget, response: response)
            otherKeys = properties != nil && admitsOtherKeys(schema)
        } else if type == .array, let element = view.items {
            items = valueSchema(element, visiting: visiting, depth: depth + 1, budget: budget, response: response)
        }
        let (oneOf, anyOf) = unionOptions(
            view, type: type, named: properties != nil || enumValues != nil, visiting: visiting, depth: depth, budget: budget, response: response)
        guard response else {
            return JSONValueSchema(
                type: type, enumValues: enumValues, properties: properties, otherKeys: otherKeys, items: items, nullable: nullable, oneOf: oneOf, anyOf: anyOf)
        }
        let format = [.string, .int, .number].contains(type) ? view.format : nil
        let minItems = type == .array ? view.minItems.flatMap { $0 > 0 ? $0 : nil } : nil
        return JSONValueSchema(
            type: type, enumValues: enumValues, properties: properties, otherKeys: otherKeys, items: items, nullable: nullable, format: format,
            minItems: minItems, oneOf: oneOf, anyOf: anyOf)
    }

    /// Nodes the options of one `oneOf`/`anyOf` may take between them; past it the value is left
    /// unchecked, as before unions were read. Stripe's expandable fields (`anyOf: [id, Customer]`
    /// at every level) read in full would make its contracts 7 times larger.
    static let unionNodes = 300
    /// How deep in a response body a `oneOf`/`anyOf` is read: the shapes a client branches on
    /// near the top (a payment's kind, an event's type), not every expandable field below them.
    static let unionDepth = 2

    /// A value's `oneOf` or `anyOf` options (in a response, so `verify --variants` sends the
    /// others than the fixture's; in a request, so a value of no option is refused), where the
    /// value has no type or named keys of its own, is near the top of the body, and its options
    /// are small (`unionNodes`); else nil, and the value is unchecked.
    private func unionOptions(
        _ view: SchemaView, type: JSONValueType, named: Bool, visiting: Set<String>, depth: Int, budget: SchemaWalkBudget, response: Bool
    ) -> (oneOf: [JSONValueSchema]?, anyOf: [JSONValueSchema]?) {
        guard type == .any, !named, depth <= Self.unionDepth else { return (nil, nil) }
        let options = view.oneOf.isEmpty ? view.anyOf : view.oneOf
        guard !options.isEmpty else { return (nil, nil) }
        let own = SchemaWalkBudget(nodes: Self.unionNodes)
        let read = options.map { valueSchema($0, visiting: visiting, depth: depth + 1, budget: own, response: response) }
        guard own.exhaustedIn == nil, budget.take(Self.unionNodes - own.remaining, at: view.node.pointer) else { return (nil, nil) }
        return view.oneOf.isEmpty ? (nil, read) : (read, nil)
    }

    /// An object's keys, or nil (unchecked) when it names none or is a free-form map.
    func objectKeys(
        _ schema: DocumentNode, visiting: Set<String> = [], depth: Int = 0, budget: SchemaWalkBudget = SchemaWalkBudget(), response: Bool = false
    ) -> [JSONKeyExpectation]? {
        guard let named = properties(of: schema), !named.isEmpty else { return nil }
        // Each key is a node of the contract too: past the budget, the object's keys are left unchecked.
        guard budget.take(named.count, at: referenceName(schema) ?? schema.pointer) else { return nil }
        return named.compactMap { property in
            let view = resolve(property.schema)
            if response ? view?.writeOnly == true : view?.readOnly == true { return nil }
            return JSONKeyExpectation(
                key: property.name, required: property.required,
                schema: valueSchema(property.schema, visiting: visiting, depth: depth + 1, budget: budget, response: response))
        }
    }
}

extension SchemaReader {
    /// Nodes the options of a `oneOf`/`anyOf` request body may take between them: a body's
    /// options are its whole shape (a client sends one of them), so more than a value's.
    static let bodyUnionNodes = 2_000

    /// The objects a `oneOf`/`anyOf` JSON request body may be, each read as a body's keys are
    /// (named keys, closed where `additionalProperties: false` says so; an option that names none
    /// takes any object). Nil when an option may be other than an object or `null`, when none
    /// names keys, or when they fan out past `bodyUnionNodes`: the body is then read as before,
    /// as the keys of any option (`unionKeys`).
    func bodyOptions(_ schema: DocumentNode, budget: SchemaWalkBudget) -> (keyword: String, options: [JSONValueSchema])? {
        guard let view = resolve(schema) else { return nil }
        let (keyword, options) = view.oneOf.isEmpty ? ("anyOf", view.anyOf) : ("oneOf", view.oneOf)
        guard !options.isEmpty else { return nil }
        let own = SchemaWalkBudget(nodes: Self.bodyUnionNodes)
        var read: [JSONValueSchema] = []
        for option in options {
            guard let optionView = resolve(option) else { return nil }
            if optionView.isOnlyNull { continue } // a `null` body, which `body.nullable` says
            // An object, or a schema that says no type (an `allOf` of objects); not `items` without a type.
            guard optionView.type == "object" || (optionView.type == nil && optionView.types.isEmpty) else { return nil }
            let keys = objectKeys(option, budget: own)
            read.append(JSONValueSchema(type: .object, properties: keys, otherKeys: keys != nil && admitsOtherKeys(option)))
        }
        guard own.exhaustedIn == nil, read.contains(where: { $0.properties != nil }),
            budget.take(Self.bodyUnionNodes - own.remaining, at: referenceName(schema) ?? schema.pointer)
        else { return nil }
        return (keyword, read)
    }

    /// The properties of any of a `oneOf`/`anyOf`'s objects (Discord's interaction callback as a
    /// form), each required only where every option requires it; nil when an option names none.
    func unionProperties(_ schema: DocumentNode) -> [Property]? {
        guard let view = resolve(schema), view.allOf.isEmpty, !view.hasProperties else { return nil }
        let options = view.oneOf + view.anyOf
        guard !options.isEmpty else { return nil }
        var union: [Property] = []
        var requiredEverywhere: Set<String>?
        for option in options {
            guard let named = properties(of: option) else { return nil }
            for property in named where !union.contains(where: { $0.name == property.name }) {
                union.append(Property(name: property.name, schema: property.schema, required: false))
            }
            let required = Set(named.filter(\.required).map(\.name))
            requiredEverywhere = requiredEverywhere.map { $0.intersection(required) } ?? required
        }
        return union.map { Property(name: $0.name, schema: $0.schema, required: requiredEverywhere?.contains($0.name) == true) }
    }

    /// The objects a `oneOf`/`anyOf` body may be, as one looser set of keys: every key any option
    /// names, required only where every option requires it, other keys allowed. Nil when an option
    /// is not an object with named properties.
    func unionKeys(_ schema: DocumentNode, budget: SchemaWalkBudget = SchemaWalkBudget()) -> [JSONKeyExpectation]? {
        guard let view = resolve(schema) else { return nil }
        let options = view.oneOf + view.anyOf
        guard !options.isEmpty, view.allOf.isEmpty, !view.hasProperties else { return nil }
        var keys: [JSONKeyExpectation] = []
        var requiredEverywhere: Set<String>?
        for option in options {
            guard let named = objectKeys(option, budget: budget) else { return nil }
            for key in named where !keys.contains(where: { $0.key == key.key }) {
                keys.append(JSONKeyExpectation(key: key.key, required: false, schema: key.schema))
            }
            let required = Set(named.filter(\.required).map(\.key))
            requiredEverywhere = requiredEverywhere.map { $0.intersection(required) } ?? required
        }
        for index in keys.indices where requiredEverywhere?.contains(keys[index].key) == true { keys[index].required = true }
        // A key two options type differently is checked as any; typed alike but otherwise
        // different (Discord's `trigger_type` is 1 in one option, 4 in another), by its type alone.
        return keys.map { key in
            let schemas = options.compactMap { objectKeys($0, budget: budget)?.first { $0.key == key.key }?.schema }
            let types = Set(schemas.map(\.type))
            if types.count > 1 { return JSONKeyExpectation(key: key.key, required: key.required, schema: JSONValueSchema()) }
            if schemas.contains(where: { $0 != key.schema }) {
                return JSONKeyExpectation(
                    key: key.key, required: key.required, schema: JSONValueSchema(type: key.schema.type, nullable: schemas.contains(where: \.nullable)))
            }
            return key
        }
    }
}

/// How many schema nodes one walk over a schema may visit. Depth and `$ref` cycles are bounded
/// elsewhere, but not breadth: 11 schemas whose 12 properties each `$ref` the next are 12⁸ nodes
/// within the depth bound (a 6 KB document that never finished importing). One budget is shared
/// by every walk made for one body, so a walk repeated per option or key draws on the same count.
final class SchemaWalkBudget {
    /// Above any real document's body, and a contract of at most this many keys stays a few MB.
    static let defaultNodes = 10_000

    private(set) var remaining: Int
    /// The schema (a `$ref` name or a JSON pointer) where the walk ran out; nil while within the budget.
    private(set) var exhaustedIn: String?

    init(nodes: Int = SchemaWalkBudget.defaultNodes) {
        remaining = nodes
    }

    /// Takes `count` nodes; false once the budget cannot give them, remembering where that first happened.
    func take(_ count: Int = 1, at schema: @autoclosure () -> String) -> Bool {
        if remaining >= count {
            remaining -= count
            return true
        }
        if exhaustedIn == nil { exhaustedIn = schema() }
        return false
    }
}
