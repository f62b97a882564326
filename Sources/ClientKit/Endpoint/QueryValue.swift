/// A typed query value; arrays are sent as `name[]=a&name[]=b`.
public enum QueryValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([String])

    /// The strings sent on the wire, one per `name=value` pair.
    var wireValues: [String] {
        switch self {
        case .string(let value): [value]
        case .int(let value): [String(value)]
        case .double(let value): [String(value)]
        case .bool(let value): [value ? "true" : "false"]
        case .array(let values): values
        }
    }
}

extension QueryValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension QueryValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension QueryValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension QueryValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension QueryValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: String...) { self = .array(elements) }
}
