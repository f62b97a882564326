/// One route of the mock API: what a request must look like and the responses it may get.
///
/// A class, immutable once loaded: the server reads it on every request, and passing a
/// reference costs one retain where copying this struct-of-arrays cost dozens.
public final class Contract: Sendable {
    public let name: String
    public let description: String?
    /// The file it came from, relative to the contracts folder.
    public let file: String
    public let request: RequestExpectation
    /// Named responses in file order; one is named `default`.
    public let responses: [ResponseDefinition]
    /// Indexes into `responses`, served in turn; the last repeats.
    public let sequence: [Int]?

    public init(name: String, description: String? = nil, file: String, request: RequestExpectation,
                responses: [ResponseDefinition], sequence: [Int]? = nil) {
        self.name = name
        self.description = description
        self.file = file
        self.request = request
        self.responses = responses
        self.sequence = sequence
    }

    public var defaultResponseIndex: Int { responses.firstIndex { $0.name == "default" } ?? 0 }

    public func responseIndex(named name: String) -> Int? { responses.firstIndex { $0.name == name } }
}

/// What a request to a contract must carry. A class for the same reason as `Contract`:
/// validation reads it on every request, and a struct read out of the contract was copied.
public final class RequestExpectation: Sendable {
    public let method: HTTPMethod
    public let path: PathTemplate
    public let query: [QueryExpectation]
    public let headers: [HeaderExpectation]
    /// Top-level keys of a JSON object body; nil when the contract expects no JSON body.
    public let json: [JSONKeyExpectation]?
    /// Parts of a multipart/form-data body; nil when the contract expects no upload.
    public let multipart: [PartExpectation]?

    public init(method: HTTPMethod, path: PathTemplate, query: [QueryExpectation] = [], headers: [HeaderExpectation] = [],
                json: [JSONKeyExpectation]? = nil, multipart: [PartExpectation]? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.json = json
        self.multipart = multipart
    }
}

/// Scalar types a query value can be declared as.
public enum QueryValueType: String, Sendable, CaseIterable {
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

public struct QueryExpectation: Sendable {
    public var name: String
    public var type: QueryValueType = .string
    public var required = true
    /// Sent as `name[]=a&name[]=b`.
    public var array = false
    /// The key may come more than once (`page=1&page=1`, as clients that append defaults send it).
    public var repeated = false
    /// The only values allowed; nil allows any of `type`.
    public var enumValues: [String]?

    public init(name: String, type: QueryValueType = .string, required: Bool = true, array: Bool = false,
                repeated: Bool = false, enumValues: [String]? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.array = array
        self.repeated = repeated
        self.enumValues = enumValues
    }
}

public struct HeaderExpectation: Sendable {
    public var name: String
    public var required = true
    /// The value must start with one of these (`token ` or `Basic `); empty allows any.
    public var prefixes: [String] = []
    /// The only values allowed; nil allows any.
    public var enumValues: [String]?

    public init(name: String, required: Bool = true, prefix: String? = nil, prefixes: [String] = [], enumValues: [String]? = nil) {
        self.name = name
        self.required = required
        self.prefixes = prefix.map { [$0] + prefixes } ?? prefixes
        self.enumValues = enumValues
    }
}

/// Types a top-level JSON body value can be declared as.
public enum JSONValueType: String, Sendable, CaseIterable {
    case string, int, number, bool, object, array, null, any

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.int, .int), (.number, .int), (.number, .double), (.bool, .bool),
             (.object, .object), (.array, .array), (.null, .null):
            true
        case (.int, .double(let d)): d.rounded() == d && abs(d) < 9e15
        default: false
        }
    }
}

public struct JSONKeyExpectation: Sendable {
    public var key: String
    public var required = true
    public var schema: JSONSchema

    public var type: JSONValueType { schema.type }

    public init(key: String, type: JSONValueType = .any, required: Bool = true) {
        self.init(key: key, required: required, schema: JSONSchema(type: type))
    }

    public init(key: String, required: Bool = true, schema: JSONSchema) {
        self.key = key
        self.required = required
        self.schema = schema
    }
}

/// What a JSON value must be: a type, optionally a list of allowed values, the keys of an
/// object, the shape of an array's elements. A class, so `items` can nest.
public final class JSONSchema: Sendable {
    public let type: JSONValueType
    /// The only values allowed; nil allows any of `type`.
    public let enumValues: [JSONValue]?
    /// An object's keys, checked like the top-level body's (unknown keys are violations); nil
    /// leaves the object unchecked.
    public let properties: [JSONKeyExpectation]?
    /// What every element of an array must be; nil leaves them unchecked.
    public let items: JSONSchema?

    public init(type: JSONValueType = .any, enumValues: [JSONValue]? = nil, properties: [JSONKeyExpectation]? = nil,
                items: JSONSchema? = nil) {
        self.type = type
        self.enumValues = enumValues
        self.properties = properties
        self.items = items
    }
}

public struct PartExpectation: Sendable {
    public var name: String
    public var required = true
    /// The part must carry a filename (a file upload rather than a text field).
    public var filename = true
    /// Allowed content types, lowercased; nil allows any.
    public var contentTypes: [String]?
    public var maxBytes: Int?
}

/// A named response a contract can give.
public struct ResponseDefinition: Sendable {
    public var name: String
    public var status: Int
    public var body: [UInt8]
    /// Nil for an empty body.
    public var contentType: String?
    /// Fixture path relative to the fixtures folder, when the body came from one.
    public var fixture: String?
    public var headers: [(name: String, value: String)] = []
    /// Query values that select this response automatically.
    public var when: [(name: String, value: String)]?
    /// Placeholders in the body (`{{baseURL}}`, `{{path.id}}`, `{{query.page}}`); nil for most.
    public var template: ResponseTemplate?
}
