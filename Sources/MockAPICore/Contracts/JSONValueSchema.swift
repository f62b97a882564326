/// Types a top-level JSON body value can be declared as.
package enum JSONValueType: String, Sendable, CaseIterable {
    case string, int, number, bool, object, array, null, any

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.int, .int), (.number, .int), (.number, .double), (.bool, .bool),
            (.object, .object), (.array, .array), (.null, .null):
            true
        // JSON has one number type: 1.0 and 1e20 are integers too (as JSON Schema reads them).
        case (.int, .double(let d)): d.isFinite && d.rounded() == d
        default: false
        }
    }
}

package struct JSONKeyExpectation: Sendable, Equatable {
    package var key: String
    package var required = true
    package var schema: JSONValueSchema

    package var type: JSONValueType { schema.type }

    package init(key: String, type: JSONValueType = .any, required: Bool = true) {
        self.init(key: key, required: required, schema: JSONValueSchema(type: type))
    }

    package init(key: String, required: Bool = true, schema: JSONValueSchema) {
        self.key = key
        self.required = required
        self.schema = schema
    }
}

/// What a JSON value must be: a type, optionally a list of allowed values, the keys of an
/// object, the shape of an array's elements. A class, so `items` can nest.
package final class JSONValueSchema: Sendable, Equatable {
    package let type: JSONValueType
    /// The only values allowed; nil allows any of `type`.
    package let enumValues: [JSONValue]?
    /// An object's keys, checked like the top-level body's (unknown keys are violations unless
    /// `otherKeys`); nil leaves the object unchecked.
    package let properties: [JSONKeyExpectation]?
    /// Keys `properties` does not name are allowed (an open object, JSON Schema's default).
    package let otherKeys: Bool
    /// What every element of an array must be; nil leaves them unchecked.
    package let items: JSONValueSchema?
    /// `null` is allowed besides `type` (OpenAPI's `nullable: true`, 3.1's `[type, "null"]`).
    package let nullable: Bool
    /// What a string or number stands for: `date-time` (RFC 3339, checked), `date`, `int64`, `int32`, ...
    /// Others are kept as written; they say which rare values `verify --variants` sends.
    package let format: String?
    /// The fewest elements an array has; nil or 0 allows an empty one.
    package let minItems: Int?
    /// The shapes the value may have besides this schema's own checks (JSON Schema's `oneOf`): a
    /// value fits when one of them allows it. That only one does is not checked: real documents'
    /// options often overlap (open objects), and a fixture is not wrong for fitting two.
    package let oneOf: [JSONValueSchema]?
    /// The same, as `anyOf` says it (kept apart so an exported contract says what it was told).
    package let anyOf: [JSONValueSchema]?

    package init(
        type: JSONValueType = .any, enumValues: [JSONValue]? = nil, properties: [JSONKeyExpectation]? = nil,
        otherKeys: Bool = false, items: JSONValueSchema? = nil, nullable: Bool = false,
        format: String? = nil, minItems: Int? = nil, oneOf: [JSONValueSchema]? = nil, anyOf: [JSONValueSchema]? = nil
    ) {
        self.oneOf = oneOf
        self.anyOf = anyOf
        self.format = format
        self.minItems = minItems
        self.nullable = nullable
        self.type = type
        self.enumValues = enumValues
        self.properties = properties
        self.otherKeys = otherKeys
        self.items = items
    }

    package static func == (lhs: JSONValueSchema, rhs: JSONValueSchema) -> Bool {
        lhs === rhs
            || (lhs.type == rhs.type && lhs.enumValues == rhs.enumValues && lhs.properties == rhs.properties
                && lhs.otherKeys == rhs.otherKeys && lhs.items == rhs.items && lhs.nullable == rhs.nullable
                && lhs.format == rhs.format && lhs.minItems == rhs.minItems && lhs.oneOf == rhs.oneOf && lhs.anyOf == rhs.anyOf)
    }

    /// Says nothing of the value: any JSON fits.
    package var isUnchecked: Bool {
        type == .any && enumValues == nil && properties == nil && items == nil && oneOf == nil && anyOf == nil
    }

    /// `oneOf`'s shapes or `anyOf`'s, labelled as reports name them; nil when it has neither.
    package var branches: (keyword: String, schemas: [JSONValueSchema])? {
        if let oneOf { return ("oneOf", oneOf) }
        if let anyOf { return ("anyOf", anyOf) }
        return nil
    }
}
