/// Values a request must carry to be this contract's, when several contracts share a method and
/// path (a login and a signup both `PUT /v1/facebook/access_token`, told apart by a body key).
/// Also the shape of a response's `when`.
package struct RequestMatch: Sendable, Equatable {
    /// Query keys and the value each must have.
    package var query: [(name: String, value: String)] = []
    /// Top-level JSON body keys and the value each must have.
    package var json: [(key: String, value: JSONValue)] = []

    package init(query: [(name: String, value: String)] = [], json: [(key: String, value: JSONValue)] = []) {
        self.query = query
        self.json = json
    }

    package static func == (lhs: RequestMatch, rhs: RequestMatch) -> Bool {
        lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.value == $1.value }
            && lhs.json.elementsEqual(rhs.json) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Whether the request carries every value.
    package func admits(query pairs: [QueryArgument], body: JSONValue?) -> Bool {
        query.allSatisfy { wanted in pairs.contains { $0.name == wanted.name && $0.value == wanted.value } }
            && json.allSatisfy { wanted in
                guard case .object(let object)? = body else { return false }
                return object[wanted.key] == wanted.value
            }
    }

    /// Each rule the request does not keep, with the value it had instead:
    /// `json.intent = "register", the request has "signup"`.
    package func unmet(query pairs: [QueryArgument], body: JSONValue?) -> [String] {
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
    package var description: String {
        (query.map { "query.\($0.name) = \"\($0.value)\"" } + json.map { "json.\($0.key) = \($0.value.serialized)" }).joined(separator: ", ")
    }
}
