/// Scalar types a query value can be declared as.
package enum QueryValueType: String, Sendable, CaseIterable {
    case string, int, number, bool

    func accepts(_ value: String) -> Bool {
        switch self {
        case .string: true
        case .int: Int(value) != nil
        case .number: Double(value) != nil
        case .bool: ["true", "false", "1", "0"].contains(value)
        }
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

    package init(name: String, type: QueryValueType = .string, required: Bool = true, array: Bool = false,
                arrayStyle: ArrayStyle? = nil, repeated: Bool = false, enumValues: [String]? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.arrayStyle = arrayStyle ?? (array ? .brackets : nil)
        self.repeated = repeated
        self.enumValues = enumValues
    }
}
