/// The body mockapi answers with when it refuses a request: the `urn:mockapi:…` problem documents
/// (422, 400, 413, 501, 503) and the plain error bodies of 404 and 405. The server encodes it and
/// the contract runner decodes it, so both sides read one shape.
///
/// Members are written in one fixed order, absent ones left out, which is the order every kind
/// of refusal has always had on the wire.
package struct ProblemDocument: Sendable, Equatable {
    /// The `type` of a problem document mockapi writes.
    package enum Kind: String, Sendable, CaseIterable {
        case contractViolation = "urn:mockapi:contract-violation"
        case malformedRequest = "urn:mockapi:malformed-request"
        case bodyTooLarge = "urn:mockapi:body-too-large"
        case bufferBudgetFull = "urn:mockapi:buffer-budget-full"
        case unsupportedTransferEncoding = "urn:mockapi:unsupported-transfer-encoding"
        case unknownSession = "urn:mockapi:unknown-session"
        case tooManySessions = "urn:mockapi:too-many-sessions"
    }

    /// A contract offered in place of the one a 404 request found none of: the nearest by path
    /// (`method`, `path`, `reason`), or one sharing the path whose `match` rules the request missed.
    package struct Candidate: Sendable, Equatable {
        package var contract: String
        package var method: String?
        package var path: String?
        package var file: String
        package var reason: String?
        package var match: String?

        package init(contract: String, method: String? = nil, path: String? = nil, file: String, reason: String? = nil, match: String? = nil) {
            self.contract = contract
            self.method = method
            self.path = path
            self.file = file
            self.reason = reason
            self.match = match
        }
    }

    /// Nil for the plain 404 and 405 bodies (`error` says what happened there).
    package var kind: Kind?
    package var title: String?
    package var status: Int?
    package var detail: String?
    /// The contract the request reached, when it reached one.
    package var contract: String?
    /// The contract's file, `contracts/projects.json`.
    package var file: String?
    package var violations: [Violation]?
    package var error: String?
    /// What a 405's path allows.
    package var allowed: [String]?
    /// A 404's nearest contracts by path.
    package var nearest: [Candidate]?
    /// A 404's contracts on the same path whose match rules the request missed.
    package var candidates: [Candidate]?
    package var hint: String?

    package init(
        kind: Kind? = nil, title: String? = nil, status: Int? = nil, detail: String? = nil, contract: String? = nil,
        file: String? = nil, violations: [Violation]? = nil, error: String? = nil, allowed: [String]? = nil,
        nearest: [Candidate]? = nil, candidates: [Candidate]? = nil, hint: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.status = status
        self.detail = detail
        self.contract = contract
        self.file = file
        self.violations = violations
        self.error = error
        self.allowed = allowed
        self.nearest = nearest
        self.candidates = candidates
        self.hint = hint
    }
}

extension ProblemDocument {
    package var json: JSONValue {
        var object = JSONObject()
        object["type"] = kind.map { .string($0.rawValue) }
        object["title"] = title.map(JSONValue.string)
        object["status"] = status.map(JSONValue.int)
        object["detail"] = detail.map(JSONValue.string)
        object["contract"] = contract.map(JSONValue.string)
        object["file"] = file.map(JSONValue.string)
        object["violations"] = violations.map { .array($0.map { ["location": .string($0.location), "message": .string($0.message)] }) }
        object["error"] = error.map(JSONValue.string)
        object["allowed"] = allowed.map { .array($0.map(JSONValue.string)) }
        object["nearest"] = nearest.map { .array($0.map(\.json)) }
        object["candidates"] = candidates.map { .array($0.map(\.json)) }
        object["hint"] = hint.map(JSONValue.string)
        return .object(object)
    }

    /// Reads a refusal body; nil for a body that is not a JSON object or whose members have
    /// other types (a contract's own fixture, say). A `type` mockapi does not write reads as no kind.
    package init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let reader = JSONMembers(object)
        guard let candidates = reader.array("candidates", Candidate.init(json:)),
            let nearest = reader.array("nearest", Candidate.init(json:)),
            let violations = reader.array(
                "violations",
                { element -> Violation? in
                    let members = element.objectValue.map(JSONMembers.init)
                    guard let location = members?.string("location") ?? nil, let message = members?.string("message") ?? nil else { return nil }
                    return Violation(location, message)
                }),
            let allowed = reader.array("allowed", \.stringValue),
            let type = reader.string("type"), let title = reader.string("title"), let status = reader.int("status"),
            let detail = reader.string("detail"), let contract = reader.string("contract"), let file = reader.string("file"),
            let error = reader.string("error"), let hint = reader.string("hint")
        else { return nil }
        self.init(
            kind: type.flatMap(Kind.init(rawValue:)), title: title, status: status, detail: detail, contract: contract, file: file,
            violations: violations, error: error, allowed: allowed, nearest: nearest, candidates: candidates, hint: hint)
    }

    /// Reads a refusal body's bytes.
    package init?(body: some Collection<UInt8>) {
        guard let json = try? JSONParser.parse(body) else { return nil }
        self.init(json: json)
    }
}

extension ProblemDocument.Candidate {
    package var json: JSONValue {
        var object = JSONObject()
        object["contract"] = .string(contract)
        object["method"] = method.map(JSONValue.string)
        object["path"] = path.map(JSONValue.string)
        object["file"] = .string(file)
        object["reason"] = reason.map(JSONValue.string)
        object["match"] = match.map(JSONValue.string)
        return .object(object)
    }

    package init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let reader = JSONMembers(object)
        guard let contract = reader.string("contract") ?? nil, let file = reader.string("file") ?? nil,
            let method = reader.string("method"), let path = reader.string("path"),
            let reason = reader.string("reason"), let match = reader.string("match")
        else { return nil }
        self.init(contract: contract, method: method, path: path, file: file, reason: reason, match: match)
    }
}
