/// Scalar types a query value can be declared as.
package enum QueryValueType: String, Sendable, CaseIterable {
    case string, int, number, bool

    func accepts(_ value: String) -> Bool {
        switch self {
        case .string: true
        case .int: Self.isInteger(value)
        case .number: Double(value) != nil
        case .bool: ["true", "false", "1", "0"].contains(value)
        }
    }

    /// Digits with an optional sign, of any length: an integer as JSON Schema reads it, not
    /// only one that fits Int64 (`w=-19067981269028397020872704` is valid for Docker's API).
    private static func isInteger(_ value: String) -> Bool {
        let digits = value.utf8.first == UInt8(ascii: "-") || value.utf8.first == UInt8(ascii: "+") ? value.utf8.dropFirst() : value.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

package struct QueryExpectation: Sendable, Equatable {
    package var name: String
    package var type: QueryValueType = .string
    package var required = true
    /// How a list is sent; nil for a single value.
    package var arrayStyle: ArrayStyle?
    /// The key may come more than once (`page=1&page=1`, as clients that append defaults send it).
    package var repeated = false
    /// The only values allowed (for a list, for each element); nil allows any of `type`.
    package var enumValues: [String]?
    /// The key also comes in nested parts, `name[part]=value` (OpenAPI's deepObject, Rails, PHP,
    /// qs): nil when it does not. `type` and `enum` check every value, bare or nested.
    package var nested: NestedParts?

    /// What `name[part]…=value` may say: which parts, and whether the bare `name=value` comes too.
    package struct NestedParts: Sendable, Equatable {
        /// The allowed first parts (`created[gt]`, `created[lt]`); nil allows any. A list's parts
        /// are its positions (`expand[]`, `expand[0]`), whatever this says.
        package var keys: [String]?
        /// The bare `name=value` keeps the contract too (a value that is an object or a scalar).
        /// A list (`arrayStyle`) always takes its own bare form, so this is false for one.
        package var plain: Bool

        package init(keys: [String]? = nil, plain: Bool = false) {
            self.keys = keys
            self.plain = plain
        }
    }

    /// The ways clients send a list in a query string.
    package enum ArrayStyle: String, Sendable, CaseIterable {
        /// `ids[]=1&ids[]=2` (Rails, PHP, Alamofire's default).
        case brackets
        /// `ids=1&ids=2` (OpenAPI's form style with explode, URLComponents with one item per value).
        case repeated
        /// `ids=1,2` (OpenAPI's form style without explode).
        case comma
    }

    /// Whether the key is a list (sent as `arrayStyle` says).
    package var array: Bool {
        get { arrayStyle != nil }
        set { arrayStyle = newValue ? arrayStyle ?? .brackets : nil }
    }

    package init(
        name: String, type: QueryValueType = .string, required: Bool = true, array: Bool = false,
        arrayStyle: ArrayStyle? = nil, repeated: Bool = false, enumValues: [String]? = nil, nested: NestedParts? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.arrayStyle = arrayStyle ?? (array ? .brackets : nil)
        self.repeated = repeated
        self.enumValues = enumValues
        self.nested = nested
    }
}
