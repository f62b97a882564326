/// Values a request must carry to be this contract's, when several contracts share a method and
/// path (a login and a signup both `PUT /v1/facebook/access_token`, told apart by a body key).
/// Also the shape of a response's `when`.
package struct RequestMatch: Sendable, Equatable {
    /// Query keys and the value each must have.
    package var query: [(name: String, value: String)] = []
    /// Top-level body keys and the value each must have: a JSON object's members, or a form's
    /// fields (whose text is compared with a string's text, or a number's or bool's JSON spelling),
    /// as `request.json` checks both.
    package var json: [(key: String, value: JSONValue)] = []
    /// The body's media type, lowercase and without parameters (`multipart/form-data`): what tells
    /// a form post from a JSON one on the same path.
    package var contentType: String?

    package init(query: [(name: String, value: String)] = [], json: [(key: String, value: JSONValue)] = [], contentType: String? = nil) {
        self.query = query
        self.json = json
        self.contentType = contentType
    }

    package static func == (lhs: RequestMatch, rhs: RequestMatch) -> Bool {
        lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.value == $1.value }
            && lhs.json.elementsEqual(rhs.json) { $0.key == $1.key && $0.value == $1.value } && lhs.contentType == rhs.contentType
    }

    /// Whether the rules look at the body or its type: the server then keeps the body for them.
    package var readsBody: Bool { !json.isEmpty || contentType != nil }

    /// Whether the request carries every value. `contentType` is the request's `Content-Type` as sent.
    package func admits(query pairs: [QueryArgument], body: IncomingRequest.Body, contentType sent: String? = nil) -> Bool {
        query.allSatisfy { wanted in pairs.contains { $0.name == wanted.name && $0.value == wanted.value } }
            && json.allSatisfy { wanted in Self.holds(wanted.key, wanted.value, in: body) }
            && (contentType == nil || sent.map(MediaType.essence) == contentType)
    }

    /// Whether the request carries every value, for a JSON body (or none).
    package func admits(query pairs: [QueryArgument], body: JSONValue?) -> Bool {
        admits(query: pairs, body: body.map(IncomingRequest.Body.json) ?? .none)
    }

    /// A JSON member equal to the value; a form field whose text is a string's text, or a
    /// number's or bool's JSON spelling (`2`, `true`).
    private static func holds(_ key: String, _ wanted: JSONValue, in body: IncomingRequest.Body) -> Bool {
        switch body {
        case .json(.object(let object)):
            return object[key] == wanted
        case .form(let fields):
            guard let field = fields.first(where: { $0.name == key }) else { return false }
            switch wanted {
            case .string(let text): return (field.value ?? "") == text
            case .int, .double, .bool: return field.value == wanted.serialized
            default: return false
            }
        default:
            return false
        }
    }

    /// Each rule the request does not keep, with the value it had instead:
    /// `json.intent = "register", the request has "signup"`.
    package func unmet(query pairs: [QueryArgument], body: JSONValue?, contentType sent: String? = nil) -> [String] {
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
        var typeRules: [String] = []
        if let contentType, sent.map(MediaType.essence) != contentType {
            typeRules.append("contentType = \"\(contentType)\", the request has \(sent.map { "\"\(MediaType.essence(of: $0))\"" } ?? "no Content-Type")")
        }
        return queryRules + jsonRules + typeRules
    }

    /// `query.count = "0"`, `json.provider = "facebook"`: for error messages.
    package var description: String {
        (query.map { "query.\($0.name) = \"\($0.value)\"" } + json.map { "json.\($0.key) = \($0.value.serialized)" }
            + (contentType.map { ["contentType = \"\($0)\""] } ?? [])).joined(separator: ", ")
    }
}
