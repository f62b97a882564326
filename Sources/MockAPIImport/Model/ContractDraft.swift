import MockAPICore

/// A contract about to be written: the same shape as a contract file, built by an importer.
///
/// Only keys the contract format documents can be expressed here, so whatever an importer
/// builds is a file `ContractSet.load` accepts (the writer checks that before anything is kept).
public struct ContractDraft: Sendable, Equatable {
    public var name: String
    public var description: String?
    /// Subfolder of `contracts/` (and of `fixtures/` for its fixtures).
    public var folder: String
    public var method: RequestMethod
    /// A path template: `/v1/projects/{id:int}`.
    public var path: String
    public var query: [Query] = []
    public var headers: [Header] = []
    /// Top-level JSON body keys; nil when no JSON body is expected.
    public var json: [JSONKey]?
    /// Multipart parts; nil when no upload is expected.
    public var multipart: [Part]?
    /// In order; the one named `default` is required.
    public var responses: [Response] = []
    /// Values that tell this contract apart from others on the same method and path.
    public var match: RequestMatch?
    /// Response names served in turn (a poll: `running`, then `done`).
    public var sequence: [String]?
    /// A recorded request that keeps the contract, for `verify-backend`.
    public var example: RequestExample?

    public init(name: String, description: String? = nil, folder: String, method: RequestMethod, path: String) {
        self.name = name
        self.description = description
        self.folder = folder
        self.method = method
        self.path = path
    }

    public struct Query: Sendable, Equatable {
        public var name: String
        public var type: QueryValueType
        public var required: Bool
        public var array: Bool
        /// Sent more than once in one request (`page=2&page=2`).
        public var repeated = false

        public init(name: String, type: QueryValueType = .string, required: Bool = true, array: Bool = false, repeated: Bool = false) {
            self.name = name
            self.type = type
            self.required = required
            self.array = array
            self.repeated = repeated
        }
    }

    public struct Header: Sendable, Equatable {
        public var name: String
        public var required: Bool
        public var prefix: String?

        public init(name: String, required: Bool = true, prefix: String? = nil) {
            self.name = name
            self.required = required
            self.prefix = prefix
        }
    }

    public struct JSONKey: Sendable, Equatable {
        public var key: String
        public var type: JSONValueType
        public var required: Bool

        public init(key: String, type: JSONValueType = .any, required: Bool = true) {
            self.key = key
            self.type = type
            self.required = required
        }
    }

    public struct Part: Sendable, Equatable {
        public var name: String
        public var required: Bool
        /// A file part (true) or a text field (false).
        public var filename: Bool
        public var contentTypes: [String]?

        public init(name: String, required: Bool = true, filename: Bool = true, contentTypes: [String]? = nil) {
            self.name = name
            self.required = required
            self.filename = filename
            self.contentTypes = contentTypes
        }
    }

    public struct Response: Sendable, Equatable {
        public var name: String
        public var status: Int
        /// Path under `fixtures/`; nil for an empty body.
        public var fixture: String?
        public var headers: [(name: String, value: String)] = []
        public var whenQuery: [(name: String, value: String)]?
        /// Top-level JSON body values that select this response.
        public var whenJSON: [(key: String, value: JSONValue)]?

        public init(name: String, status: Int, fixture: String? = nil) {
            self.name = name
            self.status = status
            self.fixture = fixture
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.status == rhs.status && lhs.fixture == rhs.fixture
                && lhs.headers.elementsEqual(rhs.headers, by: ==)
                && (lhs.whenQuery ?? []).elementsEqual(rhs.whenQuery ?? [], by: ==) && (lhs.whenQuery == nil) == (rhs.whenQuery == nil)
                && (lhs.whenJSON ?? []).elementsEqual(rhs.whenJSON ?? []) { $0.key == $1.key && $0.value == $1.value }
                && (lhs.whenJSON == nil) == (rhs.whenJSON == nil)
        }
    }
}
