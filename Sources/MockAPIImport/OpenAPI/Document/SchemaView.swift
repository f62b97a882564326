import MockAPICore

/// A schema object read tolerantly: what a keyword says when it is there and readable, nil or
/// empty when it is not, so no one keyword can fail a document. Reads OpenAPI 3.0 and 3.1 (and
/// JSON Schema) spellings of the same thing: `type: [string, "null"]` and `nullable: true`,
/// `exclusiveMinimum: 3` and `minimum: 3, exclusiveMinimum: true`, `example` and `examples: [...]`.
///
/// The node is the schema itself (its `$ref`, if any, already followed by the caller).
struct SchemaView {
    let node: DocumentNode

    init(_ node: DocumentNode) { self.node = node }

    /// Types named by `type` (a string or a 3.1 array), `"null"` left out; empty when none is named.
    var types: [String] {
        switch node["type"]?.value {
        case .string(let type)?: type == "null" ? [] : [type]
        case .array(let types)?: types.compactMap(\.stringValue).filter { $0 != "null" }
        default: []
        }
    }

    /// The one type this schema is, named or implied by its keywords (`properties` → object, `items` → array).
    var type: String? {
        if let named = types.first { return types.count == 1 ? named : nil }
        if node["properties"] != nil || node["additionalProperties"] != nil { return "object" }
        if node["items"] != nil { return "array" }
        if isOnlyNull { return "null" }
        return nil
    }

    var isOnlyNull: Bool {
        if case .string("null")? = node["type"]?.value { return true }
        if case .array(let types)? = node["type"]?.value { return !types.isEmpty && types.allSatisfy { $0 == .string("null") } }
        return false
    }

    /// `nullable: true` (3.0), `"null"` among the types (3.1), `x-nullable` (Swagger 2.0), or null among the enum values.
    var nullable: Bool {
        if node["nullable"]?.bool == true || node["x-nullable"]?.bool == true { return true }
        if case .array(let types)? = node["type"]?.value, types.contains(.string("null")) { return true }
        return enumValues?.contains(.null) == true
    }

    /// `enum`, or `const` as a one-value enum.
    var enumValues: [JSONValue]? {
        if case .array(let values)? = node["enum"]?.value, !values.isEmpty { return values }
        if let constant = node["const"] { return [constant.value] }
        return nil
    }

    /// Declared properties, in document order.
    var properties: [(name: String, schema: DocumentNode)] { node["properties"]?.members.map { ($0.key, $0.node) } ?? [] }
    var hasProperties: Bool { node["properties"]?.isObject == true }

    var required: Set<String> {
        Set(node["required"]?.elements.compactMap(\.string) ?? [])
    }

    /// `items` as a schema (a 2019 tuple array gives its first item).
    var items: DocumentNode? {
        guard let items = node["items"] else { return nil }
        return items.isObject ? items : items.elements.first
    }

    var allOf: [DocumentNode] { node["allOf"]?.elements.filter(\.isObject) ?? [] }
    var oneOf: [DocumentNode] { node["oneOf"]?.elements.filter(\.isObject) ?? [] }
    var anyOf: [DocumentNode] { node["anyOf"]?.elements.filter(\.isObject) ?? [] }

    /// `additionalProperties`: false, true, or a schema (nil when not written).
    enum OtherKeys { case forbidden, allowed, schema(DocumentNode) }
    var additionalProperties: OtherKeys? {
        guard let value = node["additionalProperties"] else { return nil }
        if let flag = value.bool { return flag ? .allowed : .forbidden }
        return value.isObject ? .schema(value) : nil
    }

    struct Bound: Equatable {
        var value: Double
        var exclusive: Bool
    }

    /// The lower bound: `minimum` with a 3.0 `exclusiveMinimum: true`, or a 3.1 `exclusiveMinimum: n`, whichever is tighter.
    var minimum: Bound? { bound("minimum", "exclusiveMinimum", tighter: >) }
    var maximum: Bound? { bound("maximum", "exclusiveMaximum", tighter: <) }

    private func bound(_ inclusiveKey: String, _ exclusiveKey: String, tighter: (Double, Double) -> Bool) -> Bound? {
        let inclusive = node[inclusiveKey]?.number
        let exclusive = node[exclusiveKey]
        var result = inclusive.map { Bound(value: $0, exclusive: exclusive?.bool == true) }
        if let strict = exclusive?.number, result.map({ tighter(strict, $0.value) || strict == $0.value }) ?? true {
            result = Bound(value: strict, exclusive: true)
        }
        return result
    }

    var multipleOf: Double? { node["multipleOf"]?.number.flatMap { $0 > 0 ? $0 : nil } }
    var format: String? { node["format"]?.string }
    var pattern: String? { node["pattern"]?.string }
    var minLength: Int? { count("minLength") }
    var maxLength: Int? { count("maxLength") }
    var minItems: Int? { count("minItems") }
    var maxItems: Int? { count("maxItems") }
    var minProperties: Int? { count("minProperties") }

    private func count(_ key: String) -> Int? {
        guard let number = node[key]?.number, number >= 0 else { return nil }
        return number < 1e9 ? Int(number) : 1_000_000_000
    }

    /// `example` (3.0), or the first of `examples` (3.1, an array).
    var example: JSONValue? {
        if let example = node["example"] { return example.value }
        if case .array(let examples)? = node["examples"]?.value { return examples.first }
        return nil
    }

    var defaultValue: JSONValue? { node["default"]?.value }
    var readOnly: Bool { node["readOnly"]?.bool == true }
    var writeOnly: Bool { node["writeOnly"]?.bool == true }

    /// A file: `format: binary` (3.0), `contentEncoding` or `contentMediaType` (3.1), `type: file` (Swagger 2.0).
    var isFile: Bool {
        if types == ["file"] { return true }
        guard type == "string" || type == nil else { return false }
        return format == "binary" || node["contentEncoding"]?.string == "binary" || node["contentMediaType"] != nil
    }

    var contentMediaType: String? { node["contentMediaType"]?.string }
}
