/// A contract file as written: what `contracts/NAME.json` says, before its fixtures are read and
/// the set's defaults merged in. The one model of the format: the loader decodes it
/// (`ContractFile.decode`), every writer (`import`, `record`, `export`) encodes it
/// (`fileJSON`), and `decode(encode(c)) == c` is tested over every contract the tests know.
public struct ContractFile: Sendable, Equatable {
    public var name: String
    public var description: String?
    /// `$schema`: for editors, ignored by mockapi.
    public var schema: String?
    public var method: RequestMethod
    /// The template as written: `/v1/projects/{id:int}`.
    public var path: String
    public var query: [QueryExpectation] = []
    public var headers: [HeaderExpectation] = []
    /// `request.credentials`: one of several credentials must be given; nil for none.
    public var credentials: CredentialExpectation?
    /// Top-level JSON body keys; nil when the contract expects no JSON body.
    public var json: [JSONKeyExpectation]?
    /// Multipart parts; nil when the contract expects no upload. With `json`, either is accepted.
    public var multipart: [PartExpectation]?
    /// `request.body`: whether the body may be absent or `null`, and whether its object is open.
    public var body = BodyRules()
    public var match: RequestMatch?
    public var example: RequestExample?
    /// In file order; the one named `default` is required.
    public var responses: [Response] = []
    /// Response names served in turn; the last repeats.
    public var sequence: [String]?
    /// The response a request that breaks the contract gets, instead of mockapi's 422.
    public var refusal: String?

    public init(name: String, description: String? = nil, method: RequestMethod, path: String) {
        self.name = name
        self.description = description
        self.method = method
        self.path = path
    }

    /// One named response as written: a fixture reference or an inline body, not yet read.
    public struct Response: Sendable, Equatable {
        public var name: String
        public var status: Int
        /// Path under `fixtures/`.
        public var fixture: String?
        /// An inline JSON body (instead of a fixture).
        public var body: JSONValue?
        public var headers: [HeaderField] = []
        public var when: RequestMatch?
        public var delay: Latency?
        public var fault: Fault?
        /// False: `{{…}}` in the body is text, served as it is (an example that shows a template).
        public var placeholders = true

        public init(name: String, status: Int, fixture: String? = nil, body: JSONValue? = nil) {
            self.name = name
            self.status = status
            self.fixture = fixture
            self.body = body
        }
    }

    /// A response header as written (`"X-Reason": "deleted"`): a name and a value, as an example's.
    public typealias HeaderField = RequestExample.Pair
}
