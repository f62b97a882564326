public import Foundation
import MockAPICore
import MockAPIServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fires every client route at a mock server and proves the two sides agree: the request the
/// client's own code built hit the contract the route claims and kept it, uploads arrived byte
/// for byte, and every response the route handles decodes with the client's own decoder.
///
/// ```swift
/// let runner = ContractRunner(set: try ContractSet.load(contracts: c, fixtures: f), checks: MyAPIChecks.all,
///                             options: VerifyOptions(scope: .claimed, strictDrift: true))
/// let report = try await runner.run()   // an in-process server on 127.0.0.1:0
/// #expect(report.exitCode == 0)
/// ```
public struct ContractRunner: Sendable {
    public var set: ContractSet
    public var checks: [RouteCheck]
    public var options: VerifyOptions

    public init(set: ContractSet, checks: [RouteCheck], options: VerifyOptions = VerifyOptions()) {
        self.set = set
        self.checks = checks
        self.options = options
    }

    /// `strict` turns on both strict coverage and strict drift.
    public init(set: ContractSet, checks: [RouteCheck], strict: Bool) {
        self.init(set: set, checks: checks, options: VerifyOptions(strictCoverage: strict, strictDrift: strict))
    }

    /// Why a run could not happen at all (exit code 2).
    package struct Unusable: Error, CustomStringConvertible {
        package var description: String
    }

    /// Verifies against an in-process server on 127.0.0.1 and a free port.
    public func run() async throws -> VerifyReport {
        let server = try Self.inProcessServer(set)
        defer { server.stop(grace: 1) }
        // The runner's own server: its journal and sequences are read and reset in process, not over HTTP.
        return try await run(
            against: URL(string: server.baseURL)!, source: ServerJournal(server: server),
            target: "in-process server \(server.baseURL)")
    }

    /// The mock for a run without a server of its own: 127.0.0.1 on a free port.
    static func inProcessServer(_ set: ContractSet) throws(Unusable) -> MockServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        do { return try MockServer(set: set, configuration: configuration) } catch {
            throw Unusable(description: "the mock server cannot start: \(error.description)")
        }
    }

    /// Verifies against a running `mockapi serve` at `baseURL`.
    public func run(against baseURL: URL, target: String? = nil) async throws -> VerifyReport {
        try await run(against: baseURL, source: AdminClient(baseURL: baseURL, token: options.adminToken), target: target)
    }

    private func run(against baseURL: URL, source: any JournalSource, target: String?) async throws -> VerifyReport {
        let started = Date()
        defer { options.decodingChild?.stop() }
        let cursor: JournalCursor
        do {
            try await source.resetScenarios()
            cursor = JournalCursor(try await source.cursor())
        } catch {
            if let reason = ServerUnreachable.reason(error) {
                throw Unusable(description: "\(baseURL.absoluteString) does not answer: \(reason)")
            }
            if let refused = error as? AdminClient.Refused {
                throw Unusable(description: "the mockapi server at \(baseURL.absoluteString) refused its admin endpoints: \(refused)")
            }
            throw Unusable(description: "no mockapi server answers at \(baseURL.absoluteString): \(error)")
        }
        let scope = contractsInScope()
        // Looked up once: a generated client can have a check per contract of a large set.
        let contractsByName = Dictionary(set.contracts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [RouteResult] = []
        var driftUnchecked: Set<String> = []
        for check in checks where scope.contains(check.contract) || contractsByName[check.contract] == nil {
            var result = await verify(
                check, contract: contractsByName[check.contract], baseURL: baseURL, source: source, cursor: cursor,
                driftUnchecked: &driftUnchecked)
            if options.strictDrift {
                result.failures += result.warnings.map { RouteResult.Failure(check: .drift, message: $0) }
            }
            if options.strictVariants {
                result.failures += result.variantFailures.map { RouteResult.Failure(check: .variants, message: $0.description) }
            }
            results.append(result)
        }
        let uncovered = uncoveredContracts
        var notes: [String] = []
        if !driftUnchecked.isEmpty {
            notes.append("drift not checked: \(driftUnchecked.sorted().joined(separator: "; "))")
        }
        var report = VerifyReport(
            routes: results, uncoveredContracts: uncovered, strictCoverage: options.strictCoverage,
            strictDrift: options.strictDrift, notes: notes, target: target ?? baseURL.absoluteString,
            seconds: Date().timeIntervalSince(started))
        report.deadLinks = FixtureLinks.dead(in: set, contracts: scope, deepLinks: options.deepLinks)
        (report.variants, report.strictVariants) = (options.variants, options.strictVariants)
        if let unusable = options.decodingChild?.unusable {
            report.notes.append("variants decoded in this process, so a decoder that traps ends the run: \(unusable)")
        }
        let leftOut = results.reduce(0) { $0 + $1.variantsLeftOut }
        if leftOut > 0 {
            report.notes.append("variants: \(leftOut) left out past \(ResponseVariants.limit) per response")
        }
        return report
    }

    /// The contracts in scope that no check claims, in the set's order, found without sending
    /// anything: under `strictCoverage` each fails the run. With scope `.all` or `.contracts`
    /// this is how a route the client never calls is caught; `.claimed` has none by definition.
    ///
    /// ```swift
    /// #expect(ContractRunner(set: set, checks: MyChecks.all).uncoveredContracts == [])
    /// ```
    public var uncoveredContracts: [String] {
        let scope = contractsInScope()
        let claimed = Set(checks.map(\.contract))
        return set.contracts.map(\.name).filter { scope.contains($0) && !claimed.contains($0) }
    }

    /// The contract names the run answers for.
    private func contractsInScope() -> Set<String> {
        options.scope.contractNames(in: set, claimed: checks.map(\.contract))
    }

    private func verify(
        _ check: RouteCheck, contract: Contract?, baseURL: URL, source: any JournalSource, cursor: JournalCursor,
        driftUnchecked: inout Set<String>
    ) async -> RouteResult {
        let started = Date()
        var result = RouteResult(name: check.name, contract: check.contract)
        guard let contract else {
            result.failures.append(.init(check: .coverage, message: "route \(check.name) claims contract \"\(check.contract)\", but \(set.contractsDirectory)/ has no contract with that name"))
            return result
        }
        guard check.responses["default"] != nil else {
            let declared = check.responses.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            result.failures.append(
                .init(
                    check: .contract,
                    message: """
                        route \(check.name) declares no decoder for the "default" response of contract "\(contract.name)" \
                        (it declares \(declared.isEmpty ? "none" : declared)): every route must declare a "default" decoder, \
                        for the answer to its plain request (sent without Prefer); add "default": .decoding(Model.self, with: yourDecoder). \
                        Nothing was sent for this route.
                        """))
            return result
        }
        result.unhandledResponses = contract.responses.map(\.name).filter { check.responses[$0] == nil }
        if options.strictCoverage, let unhandled = unhandledSentence(result) {
            result.failures.append(.init(check: .coverage, message: unhandled))
        }
        // Every response is sent first, then the journal is read once for all of them.
        var steps: [Step] = []
        var exchanges: [Exchange] = []
        var sendError: (any Error)?
        do {
            try await source.resetScenarios()
            for name in responseOrder(check) {
                guard let index = contract.responseIndex(named: name) else {
                    steps.append(.unknownResponse(name))
                    continue
                }
                let exchange = try await send(check, response: name, baseURL: baseURL)
                if name == "default" { result.request = exchange.sent }
                exchanges.append(exchange)
                steps.append(.sent(Sent(asked: name, index: index)))
            }
        } catch {
            sendError = error
        }
        do {
            try await attachJournal(to: &exchanges, source: source, cursor: cursor)
        } catch {
            sendError = sendError ?? error
        }
        if sendError == nil {
            // A response the check names that no answer was (the plain request's query or body
            // chose another, as `when` allows): asked for by name, so each named response is decoded.
            var resent: [Exchange] = []
            var resentSteps: [Step] = []
            do {
                for case .sent(let sent) in steps where !served(exchanges).contains(sent.asked) {
                    let plain = exchanges.first { $0.askedFor == "default" }?.journal?.response ?? "another response"
                    resent.append(try await send(check, response: sent.asked, baseURL: baseURL, forced: true))
                    resentSteps.append(.sent(Sent(asked: sent.asked, index: sent.index, plainAnswer: plain)))
                }
                try await attachJournal(to: &resent, source: source, cursor: cursor)
            } catch {
                sendError = error
            }
            exchanges += resent
            steps += resentSteps
        }
        var checked = 0
        var decoded: Set<String> = []
        judging: for step in steps {
            switch step {
            case .unknownResponse(let name):
                result.failures.append(
                    .init(
                        check: .contract,
                        message:
                            "the client handles a response named \"\(name)\", but contract \"\(contract.name)\" (\(file(contract))) has none; it has: \(contract.responses.map(\.name).joined(separator: ", "))"
                    ))
            case .sent(let sent):
                let exchange = exchanges[checked]
                checked += 1
                if !judge(
                    exchange, sent: sent, first: checked == 1, check: check, contract: contract, decoded: &decoded, into: &result,
                    driftUnchecked: &driftUnchecked)
                {
                    sendError = nil // the runner would have stopped here, before the next request
                    break judging
                }
            }
        }
        if let sendError {
            result.failures.append(.init(check: .transport, message: "the request could not be sent: \(sendError)"))
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// One response a check asks for, in order: sent, or named by the client but not by the contract.
    private enum Step {
        case sent(Sent)
        case unknownResponse(String)
    }

    /// A request the runner sent for one of the check's responses.
    struct Sent {
        /// The response asked for: `default` (the plain request) or the name sent in `Prefer`.
        var asked: String
        var index: Int
        /// For a response asked for again by name: what the server answered the plain request with.
        var plainAnswer: String?
    }

    /// The names of the responses the server says it answered with (its journal); an answer
    /// the journal does not name is taken to be the one asked for.
    private func served(_ exchanges: [Exchange]) -> Set<String> {
        Set(exchanges.map { $0.journal?.response ?? $0.askedFor })
    }

    /// Checks one exchange into the result; false when its request missed the contract, after
    /// which the check's other responses are not judged (they would fail the same way).
    ///
    /// The answer is judged as the response the server served (its journal says which), not the
    /// one asked for: a plain request whose query picks `page2` is decoded and reported as `page2`,
    /// with the decoder the check declares for it. Each served response is decoded once.
    private func judge(
        _ exchange: Exchange, sent: Sent, first: Bool, check: RouteCheck, contract: Contract, decoded: inout Set<String>,
        into result: inout RouteResult, driftUnchecked: inout Set<String>
    ) -> Bool {
        if exchange.journal == nil, exchange.journalEvicted > 0 {
            result.failures.append(
                .init(
                    check: .journal,
                    message:
                        "the server evicted \(exchange.journalEvicted) journaled request\(exchange.journalEvicted == 1 ? "" : "s") before the runner read them, this one among them, so what arrived could not be checked: raise serve --journal-bytes (or --journal-size)"
                ))
        }
        if let failure = matchFailure(exchange, contract: contract) {
            result.failures.append(failure)
            return false
        }
        if first, sent.asked == "default" { result.failures += uploadFailures(exchange) }
        let servedName = exchange.journal?.response ?? sent.asked
        let index = contract.responseIndex(named: servedName) ?? sent.index
        let name = contract.responses[index].name
        // A served response the check declares no decoder for is listed in `unhandledResponses`.
        guard let decoder = check.responses[name], decoded.insert(name).inserted else { return true }
        var how: String?
        if name != sent.asked {
            how = sent.asked == "default" ? "the server's answer to the plain request" : "the server's answer when asked for \"\(sent.asked)\""
        } else if let plain = sent.plainAnswer {
            how = "asked for with Prefer: example=\(name), as the plain request was answered with \"\(plain)\""
        }
        let outcome = responseOutcome(exchange, contract: contract, index: index, decoder: decoder, how: how)
        if case .success = outcome, options.variants, let shape = contract.responses[index].shape {
            checkVariants(of: exchange.body, shape: shape, response: name, decoder: decoder, into: &result)
        }
        switch outcome {
        case .failure(let failure): result.failures.append(failure)
        case .success(let value?):
            switch drift(exchange, value: value, contract: contract, index: index, decoder: decoder) {
            case .success(let warning?): result.warnings.append(warning)
            case .success(nil): break
            case .failure(let unavailable): driftUnchecked.insert(unavailable.reason)
            }
        case .success(nil): break
        }
        return true
    }

    /// `default` first, then the other names in a stable order.
    private func responseOrder(_ check: RouteCheck) -> [String] {
        ["default"] + check.responses.keys.filter { $0 != "default" }.sorted()
    }

    func file(_ contract: Contract) -> String { "\(set.contractsDirectory)/\(contract.file)" }
}
