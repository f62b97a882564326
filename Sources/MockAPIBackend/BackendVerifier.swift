package import Foundation
package import MockAPICore
import MockAPIVerify

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `verify-backend` talks to the backend.
package struct BackendOptions: Sendable {
    /// Sent with every request (credentials: `Authorization: token …`), before the contract's example headers.
    package var headers: [HTTPField] = []
    /// Send `POST`, `PUT`, `PATCH` and `DELETE` too; off by default, so a run changes nothing.
    package var allowWrites = false
    /// Requests in flight at once.
    package var concurrency = 4
    /// Seconds one request may take.
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
        let built = ConformingRequest(contract: contract, headers: options.headers, secrets: options.secrets)
        let request = built.urlRequest(baseURL: baseURL, timeout: options.timeout)
        let label = "\(contract.request.method.rawValue) \(request.url?.absoluteString ?? "")"
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
        // A session of its own for each exchange: on Linux a session's answers share one work queue,
        // and one hostile answer (20,000 headers) held every other exchange past its timeout.
        // It declines authentication challenges: on Linux a 401 with `WWW-Authenticate: Basic` otherwise waits for ever.
        // A redirect is the backend's answer: a contract that declares a 3xx checks it (followed, it never could).
        let session = URLSession(configuration: .ephemeral, delegate: DecliningAuthChallenges(followingRedirects: false), delegateQueue: nil)
        // Off this task: invalidating waits for the session's work queue too.
        defer { DispatchQueue.global().async { session.invalidateAndCancel() } }
        let started = Date()
        do {
            // `--timeout` bounds the whole exchange, not only the silences within it.
            let (data, http, cut) = try await BoundedExchange.send(request, on: session, seconds: options.timeout, maxBodyBytes: options.maxBodyBytes)
            result.seconds = Date().timeIntervalSince(started)
            result.status = http.statusCode
            if cut {
                result.outcome = .failed
                result.failures = ["the answer's body is longer than \(options.maxBodyBytes) bytes; cut there and not checked"]
                return (result, false)
            }
            let found = AnswerCheck.check(contract, status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data)
            result.failures = found.failures
            result.notes += found.notes
            result.outcome = found.failures.isEmpty ? .passed : .failed
            return (result, false)
        } catch {
            result.seconds = Date().timeIntervalSince(started)
            result.outcome = .failed
            result.failures = ["no answer: \((error as? URLError).map { "\($0.code.rawValue) \($0.localizedDescription)" } ?? "\(error)")"]
            return (result, true)
        }
    }
}
