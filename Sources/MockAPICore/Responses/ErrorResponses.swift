/// The bodies mockapi answers with when a request does not fit the contracts. Each says what
/// was sent, what was expected, and what to do, so a developer can act on one read.
package enum ErrorResponses {
    static let problemType = "application/problem+json"

    package static func notFound(method: RequestMethod?, rawMethod: String, path: String, set: ContractSet) -> GeneratedResponse {
        let nearest = NearestContracts.find(method: method ?? .GET, path: path, in: set.contracts)
        let candidates = nearest.map { candidate in
            let contract = set.contracts[candidate.contract]
            return ProblemDocument.Candidate(
                contract: contract.name, method: contract.request.method.rawValue, path: contract.request.path.text,
                file: "\(set.contractsDirectory)/\(contract.file)", reason: candidate.reason)
        }
        // The journal, the log line and `mockapi coverage` show only the problem: it carries the nearest reason.
        let closest = nearest.first.map { " (nearest \(set.contracts[$0.contract].name): \($0.reason))" } ?? ""
        var body = ProblemDocument(error: "no contract matches \(rawMethod) \(path)", nearest: candidates)
        if path == "/" {
            // Someone opened the server's root in a browser or with curl to see what it is.
            body.hint = "this is mockapi serving \(set.contracts.count) contracts: GET /__mockapi/routes lists them"
        }
        return GeneratedResponse(status: 404, json: body.json, problem: "no contract matches \(rawMethod) \(path)" + closest)
    }

    package static func methodNotAllowed(rawMethod: String, path: String, allowed: [RequestMethod]) -> GeneratedResponse {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        let error = "\(rawMethod) is not allowed on \(path); the contracts allow \(list)"
        return GeneratedResponse(status: 405, json: ProblemDocument(error: error, allowed: allowed.map(\.rawValue)).json, headers: [HTTPField("Allow", list)], problem: error)
    }

    /// A request on a shared method and path that none of the contracts there claims by its `match`.
    /// The error names each contract's unmet rules with the value the request had, and a JSON body
    /// that was not read as JSON because its Content-Type said otherwise.
    package static func noDiscriminatorMatches(_ candidates: [Contract], request: IncomingRequest, set: ContractSet) -> GeneratedResponse {
        let names = candidates.map(\.name).joined(separator: ", ")
        let body: JSONValue? = if case .json(let value) = request.body { value } else { nil }
        let unmet = candidates.flatMap { contract in
            (contract.request.match?.unmet(query: request.query, body: body, contentType: request.contentType) ?? []).map { "\(contract.name) wants \($0)" }
        }
        var error = "the request fits the path of \(names), but none of their match rules"
        if !unmet.isEmpty { error += ": " + unmet.joined(separator: "; ") }
        let rulesReadJSON = candidates.contains { !($0.request.match?.json.isEmpty ?? true) }
        if rulesReadJSON, case .other(let bytes) = request.body, bytes > 0 {
            let sent = request.contentType.map { "Content-Type: \($0)" } ?? "no Content-Type"
            error += " (the body of \(bytes) byte\(bytes == 1 ? "" : "s") came with \(sent), so it was not read as JSON: send Content-Type: application/json)"
        }
        return GeneratedResponse(
            status: 404,
            json: ProblemDocument(
                error: error,
                candidates: candidates.map { contract in
                    ProblemDocument.Candidate(
                        contract: contract.name, file: "\(set.contractsDirectory)/\(contract.file)",
                        match: contract.request.match?.description ?? "")
                }
            ).json, problem: error)
    }

    /// mockapi's 422 problem+json, or the contract's own refusal (`"refusal": "invalid"`) with the
    /// same journal problem, so `coverage` and `verify` still see a refused request.
    package static func contractViolation(_ contract: Contract, index: Int, set: ContractSet, violations: [Violation]) -> GeneratedResponse {
        let problem = violations.map { "\($0.location): \($0.message)" }.joined(separator: "; ")
        if let refusal = contract.refusal?.response(for: violations) {
            let response = contract.responses[refusal]
            var answer = GeneratedResponse(
                status: response.status, contentType: response.contentType ?? "", body: response.body,
                headers: response.headers + [HTTPField(Responder.contractHeader, contract.name), HTTPField(Responder.problemHeader, Self.headerSafe(problem))],
                problem: problem)
            if response.template != nil { answer.placeholdersOf = (index, refusal) }
            return answer
        }
        return GeneratedResponse(
            status: 422, contentType: problemType,
            json: ProblemDocument(
                kind: .contractViolation, title: "request does not match contract \"\(contract.name)\"", status: 422,
                contract: contract.name, file: "\(set.contractsDirectory)/\(contract.file)", violations: violations
            ).json, headers: [HTTPField(Responder.contractHeader, contract.name)],
            problem: problem)
    }

    /// One line of visible ASCII, at most 1,000 bytes: what a header value may carry.
    private static func headerSafe(_ text: String) -> String {
        let visible = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(String(visible).prefix(1000))
    }

    /// A request that is not well-formed HTTP content (bad multipart framing, bad JSON where framing matters).
    package static func malformed(_ detail: String, contract: Contract?) -> GeneratedResponse {
        let body = ProblemDocument(kind: .malformedRequest, title: "malformed request", status: 400, detail: detail, contract: contract?.name)
        return GeneratedResponse(
            status: 400, contentType: problemType, json: body.json,
            headers: contract.map { [HTTPField(Responder.contractHeader, $0.name)] } ?? [], problem: detail)
    }

    /// `flag` names the `mockapi serve` option that sets the limit the body broke.
    package static func tooLarge(limit: Int, flag: String = "--max-body-bytes") -> GeneratedResponse {
        let detail = "the body is larger than the server's limit of \(limit) bytes (mockapi serve \(flag))"
        return GeneratedResponse(
            status: 413, contentType: problemType,
            json: ProblemDocument(
                kind: .bodyTooLarge, title: "request body too large", status: 413, detail: detail
            ).json, problem: detail)
    }

    /// Every connection's JSON bodies together would pass `--max-buffered-bytes`: this one waits its turn.
    package static func bufferBudgetFull(limit: Int) -> GeneratedResponse {
        let detail =
            "the server already holds its limit of \(limit) bytes of JSON bodies from other requests "
            + "(mockapi serve --max-buffered-bytes); retry shortly"
        return GeneratedResponse(
            status: 503, contentType: problemType,
            json: ProblemDocument(
                kind: .bufferBudgetFull, title: "too many request bodies at once", status: 503, detail: detail
            ).json, headers: [HTTPField("Retry-After", "1")], problem: detail)
    }

    /// A body framing mockapi does not take (RFC 9112 only defines `chunked`).
    package static func unsupportedTransferEncoding(_ encoding: String) -> GeneratedResponse {
        let detail = "Transfer-Encoding \"\(encoding)\" is not supported; send Content-Length or Transfer-Encoding: chunked"
        return GeneratedResponse(
            status: 501, contentType: problemType,
            json: ProblemDocument(
                kind: .unsupportedTransferEncoding, title: "unsupported Transfer-Encoding", status: 501, detail: detail
            ).json, problem: detail)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
