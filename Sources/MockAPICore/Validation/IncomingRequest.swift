/// What validation looks at once a routed request's body has arrived. Method and path are not
/// here: routing has already matched them to the contract.
package struct IncomingRequest: Sendable {
    package enum Body: Sendable {
        case none
        case json(JSONValue)
        case invalidJSON(JSONParser.Failure)
        case multipart([ReceivedPart])
        /// An `application/x-www-form-urlencoded` body's fields, decoded, in arrival order.
        case form([QueryArgument])
        /// A body that was counted but not kept (no contract asked for it).
        case other(bytes: Int)
    }

    /// Decoded query pairs in arrival order; a key without `=` has a nil value.
    package var query: [QueryArgument]
    package var headers: HeaderFields
    package var contentType: String?
    package var body: Body

    package init(
        query: [QueryArgument] = [], headers: HeaderFields = [],
        contentType: String? = nil, body: Body = .none
    ) {
        self.query = query
        self.headers = headers
        self.contentType = contentType
        self.body = body
    }

    /// The first value of a header, matched case-insensitively.
    package func header(_ name: String) -> String? {
        headers.value(for: name)
    }
}

/// One part of a multipart body as it arrived.
public struct ReceivedPart: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var bytes: Int
    /// Lowercase hex SHA-256 of the part's body.
    public var sha256: String
    /// The body's first bytes (at most `ContentSignature.prefixLength`), for `checkBytes`; the
    /// server keeps them while it validates, the journal does not.
    package var leadingBytes: [UInt8]

    package init(name: String, filename: String?, contentType: String?, bytes: Int, sha256: String, leadingBytes: [UInt8] = []) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
        self.sha256 = sha256
        self.leadingBytes = leadingBytes
    }

    /// The same part: `leadingBytes` are left out, as a journaled part has none.
    public static func == (lhs: ReceivedPart, rhs: ReceivedPart) -> Bool {
        lhs.name == rhs.name && lhs.filename == rhs.filename && lhs.contentType == rhs.contentType && lhs.bytes == rhs.bytes
            && lhs.sha256 == rhs.sha256
    }
}
