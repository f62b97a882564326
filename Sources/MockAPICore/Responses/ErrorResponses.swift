/// The bodies mockapi answers with when a request does not fit the contracts. Each says what
/// was sent, what was expected, and what to do, so a developer can act on one read.
public enum ErrorResponses {
    static let problemType = "application/problem+json"

    public static func notFound(method: HTTPMethod?, rawMethod: String, path: String, set: ContractSet) -> GeneratedResponse {
        let nearest = NearestContracts.find(method: method ?? .GET, path: path, in: set.contracts)
        let candidates: [JSONValue] = nearest.map { candidate in
            let contract = set.contracts[candidate.contract]
            return [
                "contract": .string(contract.name),
                "method": .string(contract.request.method.rawValue),
                "path": .string(contract.request.path.text),
                "file": .string("\(set.contractsDirectory)/\(contract.file)"),
                "reason": .string(candidate.reason),
            ]
        }
        // The journal, the log line and `mockapi coverage` show only the problem: it carries the nearest reason.
        let closest = nearest.first.map { " (nearest \(set.contracts[$0.contract].name): \($0.reason))" } ?? ""
        var body = JSONObject([("error", .string("no contract matches \(rawMethod) \(path)")), ("nearest", .array(candidates))])
        if path == "/" {
            // Someone opened the server's root in a browser or with curl to see what it is.
            body["hint"] = .string("this is mockapi serving \(set.contracts.count) contracts: GET /__mockapi/routes lists them")
        }
        return GeneratedResponse(status: 404, json: .object(body), problem: "no contract matches \(rawMethod) \(path)" + closest)
    }

    public static func methodNotAllowed(rawMethod: String, path: String, allowed: [HTTPMethod]) -> GeneratedResponse {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        let error = "\(rawMethod) is not allowed on \(path); the contracts allow \(list)"
        return GeneratedResponse(status: 405, json: [
            "error": .string(error),
            "allowed": .array(allowed.map { .string($0.rawValue) }),
        ], headers: [("Allow", list)], problem: error)
    }

    /// A request on a shared method and path that none of the contracts there claims by its `match`.
    /// The error names each contract's unmet rules with the value the request had, and a JSON body
    /// that was not read as JSON because its Content-Type said otherwise.
    public static func noDiscriminatorMatches(_ candidates: [Contract], request: IncomingRequest, set: ContractSet) -> GeneratedResponse {
        let names = candidates.map(\.name).joined(separator: ", ")
        let body: JSONValue? = if case .json(let value) = request.body { value } else { nil }
        let unmet = candidates.flatMap { contract in
            (contract.request.match?.unmet(query: request.query, body: body) ?? []).map { "\(contract.name) wants \($0)" }
        }
        var error = "the request fits the path of \(names), but none of their match rules"
        if !unmet.isEmpty { error += ": " + unmet.joined(separator: "; ") }
        let rulesReadJSON = candidates.contains { !($0.request.match?.json.isEmpty ?? true) }
        if rulesReadJSON, case .other(let bytes) = request.body, bytes > 0 {
            let sent = request.contentType.map { "Content-Type: \($0)" } ?? "no Content-Type"
            error += " (the body of \(bytes) byte\(bytes == 1 ? "" : "s") came with \(sent), so it was not read as JSON: send Content-Type: application/json)"
        }
        return GeneratedResponse(status: 404, json: [
            "error": .string(error),
            "candidates": .array(candidates.map { contract in
                ["contract": .string(contract.name), "file": .string("\(set.contractsDirectory)/\(contract.file)"),
                 "match": .string(contract.request.match?.description ?? "")]
            }),
        ], problem: error)
    }

    /// mockapi's 422 problem+json, or the contract's own refusal (`"refusal": "invalid"`) with the
    /// same journal problem, so `coverage` and `verify` still see a refused request.
    public static func contractViolation(_ contract: Contract, set: ContractSet, violations: [Violation]) -> GeneratedResponse {
        let problem = violations.map { "\($0.location): \($0.message)" }.joined(separator: "; ")
        if let index = contract.refusal?.response(for: violations) {
            let response = contract.responses[index]
            return GeneratedResponse(status: response.status, contentType: response.contentType ?? "", body: response.body,
                                     headers: response.headers + [(Responder.contractHeader, contract.name), (Responder.problemHeader, Self.headerSafe(problem))],
                                     problem: problem)
        }
        return GeneratedResponse(status: 422, contentType: problemType, json: [
            "type": "urn:mockapi:contract-violation",
            "title": .string("request does not match contract \"\(contract.name)\""),
            "status": 422,
            "contract": .string(contract.name),
            "file": .string("\(set.contractsDirectory)/\(contract.file)"),
            "violations": .array(violations.map { ["location": .string($0.location), "message": .string($0.message)] }),
        ], headers: [(Responder.contractHeader, contract.name)],
           problem: problem)
    }

    /// One line of visible ASCII, at most 1,000 bytes: what a header value may carry.
    private static func headerSafe(_ text: String) -> String {
        let visible = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(String(visible).prefix(1000))
    }

    /// A request that is not well-formed HTTP content (bad multipart framing, bad JSON where framing matters).
    public static func malformed(_ detail: String, contract: Contract?) -> GeneratedResponse {
        var json: JSONObject = ["type": "urn:mockapi:malformed-request", "title": "malformed request", "status": 400, "detail": .string(detail)]
        if let contract { json["contract"] = .string(contract.name) }
        return GeneratedResponse(status: 400, contentType: problemType, json: .object(json),
                                 headers: contract.map { [(Responder.contractHeader, $0.name)] } ?? [], problem: detail)
    }

    /// `flag` names the `mockapi serve` option that sets the limit the body broke.
    public static func tooLarge(limit: Int, flag: String = "--max-body-bytes") -> GeneratedResponse {
        let detail = "the body is larger than the server's limit of \(limit) bytes (mockapi serve \(flag))"
        return GeneratedResponse(status: 413, contentType: problemType, json: [
            "type": "urn:mockapi:body-too-large", "title": "request body too large", "status": 413, "detail": .string(detail),
        ], problem: detail)
    }

    /// Every connection's JSON bodies together would pass `--max-buffered-bytes`: this one waits its turn.
    public static func bufferBudgetFull(limit: Int) -> GeneratedResponse {
        let detail = "the server already holds its limit of \(limit) bytes of JSON bodies from other requests "
            + "(mockapi serve --max-buffered-bytes); retry shortly"
        return GeneratedResponse(status: 503, contentType: problemType, json: [
            "type": "urn:mockapi:buffer-budget-full", "title": "too many request bodies at once", "status": 503, "detail": .string(detail),
        ], headers: [("Retry-After", "1")], problem: detail)
    }

    /// A body framing mockapi does not take (RFC 9112 only defines `chunked`).
    public static func unsupportedTransferEncoding(_ encoding: String) -> GeneratedResponse {
        let detail = "Transfer-Encoding \"\(encoding)\" is not supported; send Content-Length or Transfer-Encoding: chunked"
        return GeneratedResponse(status: 501, contentType: problemType, json: [
            "type": "urn:mockapi:unsupported-transfer-encoding", "title": "unsupported Transfer-Encoding", "status": 501,
            "detail": .string(detail),
        ], problem: detail)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
