package import Foundation
package import MockAPICore

/// How `verify-backend` talks to the backend.
package struct BackendOptions: Sendable {
    /// Sent with every request (credentials: `Authorization: token …`), before the contract's example headers.
    package var headers: [HTTPField] = []
    /// Send `POST`, `PUT`, `PATCH` and `DELETE` too; off by default, so a run changes nothing.
    package var allowWrites = false
    /// Requests in flight at once.
    package var concurrency = 4
    /// Seconds one exchange may take, whole: connecting, the head and the body.
    package var timeout: TimeInterval = 10
    /// Bytes of one answer's body kept at most: a longer body is cut there and reported, not held
    /// (four concurrent 2 GB answers held 9.5 GB before this bound).
    package var maxBodyBytes = 16 << 20
    /// Only these contracts; empty for all.
    package var contracts: [String] = []
    /// `MOCKAPI_SECRET_*` variables, by name: what a request example's `[redacted]` values stand for.
    package var secrets: [String: String] = [:]

    package init() {}
}

/// The backend did not answer at all: no request got a response.
package struct BackendUnreachable: Error, CustomStringConvertible {
    package var description: String
}

/// Sends one request per contract to a real backend and checks each answer against what the
/// mock promises (provider verification: the contracts still describe the backend).
package struct BackendVerifier: Sendable {
    let set: ContractSet
    let baseURL: URL
    let options: BackendOptions

    package init(set: ContractSet, baseURL: URL, options: BackendOptions = BackendOptions()) {
        self.set = set
        self.baseURL = baseURL
        self.options = options
    }

    static let safeMethods: Set<RequestMethod> = [.GET, .HEAD, .OPTIONS]

    package func run() async throws -> BackendReport {
        // libcurl is loaded on first use: without it no check can run, which one line says best.
        if let reason = CurlExchange.loadFailure { throw CurlExchange.Failure(description: reason) }
        let started = Date()
        let contracts = set.contracts.filter { options.contracts.isEmpty || options.contracts.contains($0.name) }
        var results = [BackendResult?](repeating: nil, count: contracts.count)
        var transportFailures = 0
        try await withThrowingTaskGroup(of: (Int, BackendResult, Bool).self) { group in
            var next = 0
            func startNext() {
                guard next < contracts.count else { return }
                let index = next, contract = contracts[index]
                next += 1
                group.addTask {
                    let (result, unreachable) = await check(contract); return (index, result, unreachable)
                }
            }
            for _ in 0..<max(1, options.concurrency) { startNext() }
            while let (index, result, unreachable) = try await group.next() {
                results[index] = result
                if unreachable { transportFailures += 1 }
                startNext()
            }
        }
        let sent = results.compactMap { $0 }.filter { $0.outcome != .skipped }.count
        if sent > 0, transportFailures == sent {
            throw BackendUnreachable(description: "\(baseURL.absoluteString) does not answer: " + (results.compactMap { $0?.failures.first }.first ?? ""))
        }
        return BackendReport(baseURL: baseURL.absoluteString, results: results.compactMap { $0 }, seconds: Date().timeIntervalSince(started))
    }

    /// The contract's result, and whether the request got no answer at all.
    private func check(_ contract: Contract) async -> (BackendResult, Bool) {
        let choice = HeaderChoice(given: options.headers)
        var headers = choice.headers(for: contract)
        var built = BackendRequest(contract: contract, baseURL: baseURL, headers: headers, secrets: options.secrets)
        let label = "\(contract.request.method.rawValue) \(built.url.absoluteString)"
        var result = BackendResult(contract: contract.name, request: label, outcome: .passed, notes: built.guesses.map { "guessed: \($0)" })
        guard options.allowWrites || Self.safeMethods.contains(contract.request.method) else {
            result.outcome = .skipped
            result.notes = ["\(contract.request.method.rawValue) changes data: sent only with --allow-writes"]
            return (result, false)
        }
        guard built.missingSecrets.isEmpty else {
            // The marker sent as data would be taken for it: a test user's password changed to `[redacted]`.
            result.outcome = .skipped
            result.notes = [
                "request.example has a credential as [redacted]: set \(built.missingSecrets.joined(separator: ", ")) to send the real "
                    + (built.missingSecrets.count == 1 ? "value" : "values")
            ]
            return (result, false)
        }
        let started = Date()
        do {
            var answer = try await send(built)
            let challenge = answer.value(of: "WWW-Authenticate")
            if answer.status == 401, answer.cut == nil, let answering = choice.answering(challenge: challenge, sent: headers) {
                // The set mixes schemes (`Basic` here, `token` there): the 401 says which this one takes.
                headers = answering
                built = BackendRequest(contract: contract, baseURL: baseURL, headers: headers, secrets: options.secrets)
                answer = try await send(built)
                result.notes.append("Authorization: the first answer was 401 asking for \(challenge?.split(separator: " ").first ?? ""); sent the --header of that scheme")
            }
            result.seconds = Date().timeIntervalSince(started)
            result.status = answer.status
            if let cut = answer.cut {
                result.outcome = .failed
                result.failures = [Self.cutMessage(cut, maxBodyBytes: options.maxBodyBytes)]
                return (result, false)
            }
            let intended = SuccessReach.intended(contract, for: built)
            if SuccessReach.missed(intended, status: answer.status, in: contract) {
                var tried: [String] = []
                if let reached = await reach(contract, intended: intended, first: built, headers: headers, tried: &tried) {
                    answer = reached.answer
                    result.request = "\(contract.request.method.rawValue) \(reached.request.url.absoluteString)"
                    result.status = reached.answer.status
                    result.notes = reached.request.guesses.map { "guessed: \($0)" } + result.notes.filter { !$0.hasPrefix("guessed: ") } + [reached.note]
                } else {
                    result.seconds = Date().timeIntervalSince(started)
                    result.outcome = .notReached
                    result.failures = [notReachedMessage(contract, intended: intended, status: answer.status, sent: built, tried: tried)]
                    return (result, false)
                }
            }
            result.seconds = Date().timeIntervalSince(started)
            let found = AnswerCheck.check(contract, status: answer.status, header: answer.value(of:), body: answer.body)
            result.failures = found.failures
            result.notes += found.notes
            result.outcome = found.failures.isEmpty ? .passed : .failed
            return (result, false)
        } catch {
            result.seconds = Date().timeIntervalSince(started)
            result.outcome = .failed
            result.failures = ["no answer: \(error)"]
            return (result, true)
        }
    }

    /// One exchange, through libcurl (`CurlExchange`): `--timeout` bounds the whole exchange, not
    /// only the silences within it, and a body past `maxBodyBytes` is cut there. Each check starts
    /// without cookies; a redirect or a 401 is the backend's answer (a contract that declares a
    /// 3xx checks it: followed, it never could).
    private func send(_ request: BackendRequest) async throws -> BackendAnswer {
        try await CurlExchange.send(request, seconds: options.timeout, maxBodyBytes: options.maxBodyBytes)
    }

    /// Why an answer past a bound is not checked.
    static func cutMessage(_ cut: BackendAnswer.Cut, maxBodyBytes: Int) -> String {
        switch cut {
        case .body: "the answer's body is longer than \(maxBodyBytes) bytes; cut there and not checked"
        case .head:
            "the answer's head has more than \(CurlExchange.maxHeaderLines) header lines or \(CurlExchange.maxHeadBytes) bytes; cut there and not checked"
        }
    }

    /// The success answer, sent again with an id the backend may know.
    struct Retry {
        var request: BackendRequest
        var answer: BackendAnswer
        var note: String
    }

    /// The success answer, sent again with an id the backend may know: the success fixture's own
    /// (`id` or the parameter's name), then the first item of the set's `GET` list of the collection.
    /// `tried` collects each other value sent and where it came from, for the not-reached message.
    private func reach(_ contract: Contract, intended: ResponseDefinition, first: BackendRequest, headers: [HTTPField], tried: inout [String]) async -> Retry? {
        guard let (index, parameter) = SuccessReach.lastParameter(of: contract) else { return nil }
        var sentValues: Set<String> = [first.pathValues[parameter] ?? ""]
        var attempts: [String] = []
        func attempt(_ value: String?, from source: String) async -> Retry? {
            guard let value, sentValues.insert(value).inserted else { return nil }
            var overrides = first.pathValues
            overrides[parameter] = value
            let again = BackendRequest(contract: contract, baseURL: baseURL, headers: headers, secrets: options.secrets, pathOverrides: overrides)
            let answer = try? await send(again)
            guard let answer, answer.cut == nil, !SuccessReach.missed(intended, status: answer.status, in: contract) else {
                attempts.append("\(parameter) = \(value) from \(source) → \(answer.map { String($0.status) } ?? "no answer")")
                return nil
            }
            return Retry(request: again, answer: answer, note: "path \(parameter) = \(value) taken from \(source)")
        }
        defer { tried += attempts }
        let fixture = intended.body.isEmpty ? nil : try? JSONParser.parse(intended.body)
        if let reached = await attempt(SuccessReach.id(in: fixture, parameter: parameter), from: "the success fixture") { return reached }
        guard let (list, names) = SuccessReach.list(above: index, of: contract, in: set) else { return nil }
        var listValues: [String: String] = [:]
        for (listName, itemName) in names { listValues[listName] = first.pathValues[itemName] }
        let listRequest = BackendRequest(
            contract: list, baseURL: baseURL, headers: HeaderChoice(given: options.headers).headers(for: list), secrets: options.secrets,
            pathOverrides: listValues)
        let source = "GET \(listRequest.url.path) (\(list.name))"
        guard let listed = try? await send(listRequest), listed.cut == nil, (200..<300).contains(listed.status) else {
            attempts.append("the list \(source) did not answer with success")
            return nil
        }
        guard let id = SuccessReach.firstID(inList: listed.body, parameter: parameter) else {
            attempts.append("the list \(source) has no item with \(parameter) or id")
            return nil
        }
        return await attempt(id, from: source)
    }

    /// Why the success answer was not checked, what was sent, and how to reach it.
    private func notReachedMessage(_ contract: Contract, intended: ResponseDefinition, status: Int, sent: BackendRequest, tried: [String]) -> String {
        let declared = contract.responses.first { $0.status == status }.map { " (declared by response \"\($0.name)\")" } ?? ""
        let values = sent.pathValues.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        let sentText = values.isEmpty ? "" : " for path \(values)"
        let triedText = tried.isEmpty ? "" : "; also tried \(tried.joined(separator: "; "))"
        var fix = "give the contract a request.example the backend answers with success"
        if status == 401 || status == 403 {
            // No id reaches past a login: the backend wants credentials.
            fix = "pass the backend's credentials (--header \"Authorization: …\" or $MOCKAPI_BACKEND_AUTHORIZATION)"
        } else if let (index, parameter) = SuccessReach.lastParameter(of: contract) {
            fix = "put an id the backend knows in request.example (\"example\": {\"path\": {\"\(parameter)\": …}})"
            if SuccessReach.list(above: index, of: contract, in: set) == nil {
                let collection = contract.request.path.segments[..<index].map { segment in
                    switch segment {
                    case .literal(let text): "/" + text
                    case .parameter(let name, _): "/{\(name)}"
                    }
                }.joined()
                fix += ", or declare a GET contract for \(collection.isEmpty ? "/" : collection) whose items carry it"
            }
        }
        return "the backend answered \(status)\(declared)\(sentText), not the \(intended.status) of response \"\(intended.name)\"\(triedText): "
            + "its body was not checked. To check it, \(fix)."
    }
}
