/// What a request to a contract must carry. A class for the same reason as `Contract`:
/// validation reads it on every request, and a struct read out of the contract was copied.
package final class RequestExpectation: Sendable {
    package let method: RequestMethod
    package let path: PathTemplate
    package let query: [QueryExpectation]
    package let headers: [HeaderExpectation]
    /// Top-level keys of a JSON object body; nil when the contract expects no JSON body.
    package let json: [JSONKeyExpectation]?
    /// Parts of a multipart/form-data body; nil when the contract expects no upload. With `json`
    /// too, either body is accepted, told apart by its Content-Type.
    package let multipart: [PartExpectation]?
    /// Whether the body may be absent or `null`, and whether its object is open.
    package let body: BodyRules
    /// What tells this contract apart from others on the same method and path; nil for most.
    package let match: RequestMatch?
    /// A concrete request that keeps this contract, for `verify-backend`; nil when not written.
    package let example: RequestExample?

    package init(method: RequestMethod, path: PathTemplate, query: [QueryExpectation] = [], headers: [HeaderExpectation] = [],
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

/// What a request's body may be beyond its keys or parts: absent, `null`, or an object with keys
/// the contract does not name. The defaults are strict: a body is required, an object, and closed.
package struct BodyRules: Sendable, Equatable {
    /// False: a request without a body keeps the contract (OpenAPI's `requestBody.required: false`).
    package var required = true
    /// True: a JSON `null` body keeps the contract.
    package var nullable = false
    /// True: top-level JSON keys the contract does not name are allowed (an open object).
    package var otherKeys = false

    package init(required: Bool = true, nullable: Bool = false, otherKeys: Bool = false) {
        self.required = required
        self.nullable = nullable
        self.otherKeys = otherKeys
    }

    package var isDefault: Bool { self == BodyRules() }
}
