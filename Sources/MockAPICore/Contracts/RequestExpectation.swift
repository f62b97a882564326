/// What a request to a contract must carry. A class for the same reason as `Contract`:
/// validation reads it on every request, and a struct read out of the contract was copied.
package final class RequestExpectation: Sendable {
    package let method: RequestMethod
    package let path: PathTemplate
    package let query: [QueryExpectation]
    package let headers: [HeaderExpectation]
    /// One of several credentials the request must carry; nil when the contract names none.
    package let credentials: CredentialExpectation?
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

    package init(
        method: RequestMethod, path: PathTemplate, query: [QueryExpectation] = [], headers: [HeaderExpectation] = [],
        credentials: CredentialExpectation? = nil, json: [JSONKeyExpectation]? = nil, multipart: [PartExpectation]? = nil,
        body: BodyRules = BodyRules(), match: RequestMatch? = nil, example: RequestExample? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.credentials = credentials
        self.json = json
        self.multipart = multipart
        self.body = body
        self.match = match
        self.example = example
    }

    /// Whether the body is checked at all: by its keys, its parts or its media type.
    package var checksBody: Bool { json != nil || multipart != nil || body.contentTypes != nil }
}

/// What a request's body may be beyond its keys or parts: absent, `null`, or an object with keys
/// the contract does not name. The defaults are strict: a body is required, an object, and closed.
package struct BodyRules: Sendable, Equatable {
    /// False: a request without a body keeps the contract (OpenAPI's `requestBody.required: false`).
    package var required = true
    /// True: a JSON `null` body keeps the contract.
    package var nullable = false
    /// True: top-level JSON keys the contract does not name are allowed (an open object); with
    /// `multipart`, parts it does not name too.
    package var otherKeys = false
    /// True: a JSON body that is not an object (a string, a number, a list, `null`) is taken
    /// unchecked, as a schema that names properties but no `type` allows.
    package var otherTypes = false
    /// The media types the body may come as (lowercased, without parameters), besides
    /// multipart/form-data for `multipart`: a JSON type (`application/json`, any `+json`) is read
    /// by `json`, `application/x-www-form-urlencoded` by `json`'s keys, any other is taken unread.
    /// Nil: `application/json` for `json`.
    package var contentTypes: [String]?
    /// The objects a JSON body may be (OpenAPI's `oneOf` body): besides `json`'s keys, which every
    /// body has, it must fit one of these. They say which other keys it may have, so the top-level
    /// object is open. At least one must fit, not exactly one, as for a response's `oneOf`.
    package var oneOf: [JSONValueSchema]?
    /// The same, as `anyOf` says it (kept apart so an exported contract says what it was told).
    package var anyOf: [JSONValueSchema]?

    package init(
        required: Bool = true, nullable: Bool = false, otherKeys: Bool = false, otherTypes: Bool = false, contentTypes: [String]? = nil,
        oneOf: [JSONValueSchema]? = nil, anyOf: [JSONValueSchema]? = nil
    ) {
        self.required = required
        self.nullable = nullable
        self.otherKeys = otherKeys
        self.otherTypes = otherTypes
        self.contentTypes = contentTypes
        self.oneOf = oneOf
        self.anyOf = anyOf
    }

    package var isDefault: Bool { self == BodyRules() }

    /// `oneOf`'s objects or `anyOf`'s, labelled as reports name them; nil when the body has neither.
    package var branches: (keyword: String, schemas: [JSONValueSchema])? {
        if let oneOf { return ("oneOf", oneOf) }
        if let anyOf { return ("anyOf", anyOf) }
        return nil
    }

    /// Whether a top-level key the contract's `json` does not name is allowed: an open object, or
    /// one whose options say which other keys it may have.
    package var takesOtherKeys: Bool { otherKeys || oneOf != nil || anyOf != nil }

    /// Whether `json` or one of the options names `key` (a `match` may pick a contract by an option's key).
    package func names(_ key: String, besides keys: [JSONKeyExpectation]?) -> Bool {
        (keys ?? []).contains { $0.key == key } || (branches?.schemas ?? []).contains { $0.properties?.contains { $0.key == key } == true }
    }

    /// Whether a body of this type (an essence) is parsed as JSON for the contract's `json`.
    package func readsJSON(_ essence: String) -> Bool {
        guard let contentTypes else { return essence == "application/json" }
        return MediaType.isJSON(essence) && contentTypes.contains(essence)
    }

    /// Whether a body of this type is read as form fields for the contract's `json` keys.
    package func readsForm(_ essence: String) -> Bool {
        essence == MediaType.form && contentTypes?.contains(essence) == true
    }
}
