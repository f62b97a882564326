/// A contract file as written: what `contracts/NAME.json` says, before its fixtures are read and
/// the set's defaults merged in. The one model of the format: the loader decodes it
/// (`ContractFile.decode`), every writer (`import`, `record`, `export`) encodes it
/// (`fileJSON`), and `decode(encode(c)) == c` is tested over every contract the tests know.
package struct ContractFile: Sendable, Equatable {
    package var name: String
    package var description: String?
    /// `$schema`: for editors, ignored by mockapi.
    package var schema: String?
    package var method: RequestMethod
    /// The template as written: `/v1/projects/{id:int}`.
    package var path: String
    package var query: [QueryExpectation] = []
    package var headers: [HeaderExpectation] = []
    /// `request.credentials`: one of several credentials must be given; nil for none.
    package var credentials: CredentialExpectation?
    /// Top-level JSON body keys; nil when the contract expects no JSON body.
    package var json: [JSONKeyExpectation]?
    /// Multipart parts; nil when the contract expects no upload. With `json`, either is accepted.
    package var multipart: [PartExpectation]?
    /// `request.body`: whether the body may be absent or `null`, and whether its object is open.
    package var body = BodyRules()
    package var match: RequestMatch?
    package var example: RequestExample?
    /// In file order; the one named `default` is required.
    package var responses: [Response] = []
    /// Response names served in turn; the last repeats.
    package var sequence: [String]?
    /// The response a request that breaks the contract gets, instead of mockapi's 422.
    package var refusal: String?
    /// The in-memory collection this contract operates on; nil for a contract that serves fixtures.
    package var resource: ResourceDeclaration?

    package init(name: String, description: String? = nil, method: RequestMethod, path: String) {
        self.name = name
        self.description = description
        self.method = method
        self.path = path
    }

    /// One named response as written: a fixture reference or an inline body, not yet read.
    package struct Response: Sendable, Equatable {
        package var name: String
        package var status: Int
        /// Path under `fixtures/`.
        package var fixture: String?
        /// An inline JSON body (instead of a fixture).
        package var body: JSONValue?
        package var headers: [HeaderField] = []
        package var when: RequestMatch?
        package var delay: Latency?
        package var fault: Fault?
        /// False: `{{…}}` in the body is text, served as it is (an example that shows a template).
        package var placeholders = true
        /// `schema`: every body this response may have, not only the fixture (nullable keys,
        /// optional keys, enum values, formats); what `lint` holds the fixture to and
        /// `verify --variants` draws rare answers from.
        package var shape: JSONValueSchema?

        package init(name: String, status: Int, fixture: String? = nil, body: JSONValue? = nil) {
            self.name = name
            self.status = status
            self.fixture = fixture
            self.body = body
        }
    }

    /// A response header as written (`"X-Reason": "deleted"`): a name and a value, as an example's.
    package typealias HeaderField = HTTPField
}
