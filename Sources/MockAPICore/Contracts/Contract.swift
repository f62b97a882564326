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
    /// The file as written (fixture references rather than bytes, no set defaults): what
    /// `export` writes back. Nil for a contract built in code.
    public let source: ContractFile?
    /// The response a request that breaks the contract gets instead of mockapi's 422, as the API
    /// itself would refuse it; nil for the 422. A header's own refusal comes first.
    public let refusal: Refusal?

    /// Indexes into `responses`: the contract's refusal, and per header location (`header.Authorization`) its own.
    public struct Refusal: Sendable {
        public var response: Int?
        public var byHeader: [(location: String, response: Int)] = []

        /// The response for these violations: the first header with a refusal of its own, else the contract's.
        public func response(for violations: [Violation]) -> Int? {
            for violation in violations {
                if let match = byHeader.first(where: { $0.location == violation.location }) { return match.response }
            }
            return response
        }
    }

    public init(name: String, description: String? = nil, file: String, request: RequestExpectation,
                responses: [ResponseDefinition], sequence: [Int]? = nil, source: ContractFile? = nil, refusal: Refusal? = nil) {
        self.name = name
        self.description = description
        self.file = file
        self.request = request
        self.responses = responses
        self.sequence = sequence
        self.source = source
        self.refusal = refusal
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
    /// Parts of a multipart/form-data body; nil when the contract expects no upload. With `json`
    /// too, either body is accepted, told apart by its Content-Type.
    public let multipart: [PartExpectation]?
    /// Whether the body may be absent or `null`, and whether its object is open.
    public let body: BodyRules
    /// What tells this contract apart from others on the same method and path; nil for most.
    public let match: RequestMatch?
    /// A concrete request that keeps this contract, for `verify-backend`; nil when not written.
    public let example: RequestExample?

    public init(method: HTTPMethod, path: PathTemplate, query: [QueryExpectation] = [], headers: [HeaderExpectation] = [],
                json: [JSONKeyExpectation]? = nil, multipart: [PartExpectation]? = nil, body: BodyRules = BodyRules(),
                match: RequestMatch? = nil, example: RequestExample? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.json = json
        self.multipart = multipart
        self.body = body
        self.match = match
        self.example = example
    }
}

/// Values a request must carry to be this contract's, when several contracts share a method and
/// path (a login and a signup both `PUT /v1/facebook/access_token`, told apart by a body key).
/// Also the shape of a response's `when`.
public struct RequestMatch: Sendable, Equatable {
    /// Query keys and the value each must have.
    public var query: [(name: String, value: String)] = []
    /// Top-level JSON body keys and the value each must have.
    public var json: [(key: String, value: JSONValue)] = []

    public init(query: [(name: String, value: String)] = [], json: [(key: String, value: JSONValue)] = []) {
        self.query = query
        self.json = json
    }

    public static func == (lhs: RequestMatch, rhs: RequestMatch) -> Bool {
        lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.value == $1.value }
            && lhs.json.elementsEqual(rhs.json) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Whether the request carries every value.
    public func admits(query pairs: [(name: String, value: String?)], body: JSONValue?) -> Bool {
        query.allSatisfy { wanted in pairs.contains { $0.name == wanted.name && $0.value == wanted.value } }
            && json.allSatisfy { wanted in
                guard case .object(let object)? = body else { return false }
                return object[wanted.key] == wanted.value
            }
    }

    /// Each rule the request does not keep, with the value it had instead:
    /// `json.intent = "register", the request has "signup"`.
    public func unmet(query pairs: [(name: String, value: String?)], body: JSONValue?) -> [String] {
        let queryRules = query.compactMap { wanted -> String? in
            let values = pairs.filter { $0.name == wanted.name }.map(\.value)
            if values.contains(where: { $0 == wanted.value }) { return nil }
            let rule = "query.\(wanted.name) = \"\(wanted.value)\""
            guard let had = values.first else { return "\(rule), the request has no \(wanted.name) in its query" }
            return "\(rule), the request has \(had.map { "\"\($0)\"" } ?? "\(wanted.name) without a value")"
        }
        let jsonRules = json.compactMap { wanted -> String? in
            let rule = "json.\(wanted.key) = \(wanted.value.serialized)"
            guard case .object(let object)? = body else { return "\(rule), the request has no JSON object body" }
            guard let had = object[wanted.key] else { return "\(rule), the request has no \(wanted.key) key" }
            return had == wanted.value ? nil : "\(rule), the request has \(had.serialized)"
        }
        return queryRules + jsonRules
    }

    /// `query.count = "0"`, `json.provider = "facebook"`: for error messages.
    public var description: String {
        (query.map { "query.\($0.name) = \"\($0.value)\"" } + json.map { "json.\($0.key) = \($0.value.serialized)" }).joined(separator: ", ")
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

public struct QueryExpectation: Sendable, Equatable {
    public var name: String
    public var type: QueryValueType = .string
    public var required = true
    /// How a list is sent; nil for a single value.
    public var arrayStyle: ArrayStyle?
    /// The key may come more than once (`page=1&page=1`, as clients that append defaults send it).
    public var repeated = false
    /// The only values allowed (for a list, for each element); nil allows any of `type`.
    public var enumValues: [String]?

    /// The ways clients send a list in a query string.
    public enum ArrayStyle: String, Sendable, CaseIterable {
        /// `ids[]=1&ids[]=2` (Rails, PHP, Alamofire's default).
        case brackets
        /// `ids=1&ids=2` (OpenAPI's form style with explode, URLComponents with one item per value).
        case repeated
        /// `ids=1,2` (OpenAPI's form style without explode).
        case comma
    }

    /// Whether the key is a list (sent as `arrayStyle` says).
    public var array: Bool {
        get { arrayStyle != nil }
        set { arrayStyle = newValue ? arrayStyle ?? .brackets : nil }
    }

    public init(name: String, type: QueryValueType = .string, required: Bool = true, array: Bool = false,
                arrayStyle: ArrayStyle? = nil, repeated: Bool = false, enumValues: [String]? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.arrayStyle = arrayStyle ?? (array ? .brackets : nil)
        self.repeated = repeated
        self.enumValues = enumValues
    }
}

/// What a request's body may be beyond its keys or parts: absent, `null`, or an object with keys
/// the contract does not name. The defaults are strict: a body is required, an object, and closed.
public struct BodyRules: Sendable, Equatable {
    /// False: a request without a body keeps the contract (OpenAPI's `requestBody.required: false`).
    public var required = true
    /// True: a JSON `null` body keeps the contract.
    public var nullable = false
    /// True: top-level JSON keys the contract does not name are allowed (an open object).
    public var otherKeys = false

    public init(required: Bool = true, nullable: Bool = false, otherKeys: Bool = false) {
        self.required = required
        self.nullable = nullable
        self.otherKeys = otherKeys
    }

    public var isDefault: Bool { self == BodyRules() }
}

public struct HeaderExpectation: Sendable, Equatable {
    public var name: String
    public var required = true
    /// The value must start with one of these (`token ` or `Basic `); empty allows any.
    public var prefixes: [String] = []
    /// The only values allowed; nil allows any.
    public var enumValues: [String]?
    /// The contract's response a request gets when this header is missing or wrong (a 401 with
    /// the API's own error body), instead of the contract's refusal.
    public var refusal: String?

    public init(name: String, required: Bool = true, prefix: String? = nil, prefixes: [String] = [], enumValues: [String]? = nil,
                refusal: String? = nil) {
        self.name = name
        self.required = required
        self.prefixes = prefix.map { [$0] + prefixes } ?? prefixes
        self.enumValues = enumValues
        self.refusal = refusal
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

public struct JSONKeyExpectation: Sendable, Equatable {
    public var key: String
    public var required = true
    public var schema: JSONValueSchema

    public var type: JSONValueType { schema.type }

    public init(key: String, type: JSONValueType = .any, required: Bool = true) {
        self.init(key: key, required: required, schema: JSONValueSchema(type: type))
    }

    public init(key: String, required: Bool = true, schema: JSONValueSchema) {
        self.key = key
        self.required = required
        self.schema = schema
    }
}

/// What a JSON value must be: a type, optionally a list of allowed values, the keys of an
/// object, the shape of an array's elements. A class, so `items` can nest.
public final class JSONValueSchema: Sendable, Equatable {
    public let type: JSONValueType
    /// The only values allowed; nil allows any of `type`.
    public let enumValues: [JSONValue]?
    /// An object's keys, checked like the top-level body's (unknown keys are violations unless
    /// `otherKeys`); nil leaves the object unchecked.
    public let properties: [JSONKeyExpectation]?
    /// Keys `properties` does not name are allowed (an open object, JSON Schema's default).
    public let otherKeys: Bool
    /// What every element of an array must be; nil leaves them unchecked.
    public let items: JSONValueSchema?

    public init(type: JSONValueType = .any, enumValues: [JSONValue]? = nil, properties: [JSONKeyExpectation]? = nil,
                otherKeys: Bool = false, items: JSONValueSchema? = nil) {
        self.type = type
        self.enumValues = enumValues
        self.properties = properties
        self.otherKeys = otherKeys
        self.items = items
    }

    public static func == (lhs: JSONValueSchema, rhs: JSONValueSchema) -> Bool {
        lhs === rhs || (lhs.type == rhs.type && lhs.enumValues == rhs.enumValues && lhs.properties == rhs.properties
            && lhs.otherKeys == rhs.otherKeys && lhs.items == rhs.items)
    }
}

public struct PartExpectation: Sendable, Equatable {
    public var name: String
    public var required = true
    /// The part must carry a filename (a file upload rather than a text field).
    public var filename = true
    /// Allowed content types, lowercased; nil allows any.
    public var contentTypes: [String]?
    public var maxBytes: Int?

    public init(name: String, required: Bool = true, filename: Bool = true, contentTypes: [String]? = nil, maxBytes: Int? = nil) {
        self.name = name
        self.required = required
        self.filename = filename
        self.contentTypes = contentTypes
        self.maxBytes = maxBytes
    }
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
    /// Query (and JSON body) values that select this response automatically.
    public var when: RequestMatch?
    /// Placeholders in the body (`{{baseURL}}`, `{{path.id}}`, `{{query.page}}`); nil for most.
    public var template: ResponseTemplate?
    /// How long the answer waits; nil for at once (or the server's `--delay`).
    public var delay: Latency?
    /// A broken answer instead of this one, on purpose.
    public var fault: Fault?
}
