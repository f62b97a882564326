public import Foundation
import MockAPICore
import MockAPIServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls every operation of a generated OpenAPI client (swift-openapi-generator) against a mock
/// server, once per response its contract documents, and proves per operation that the
/// generated request hit the contract named by its `operationId` and kept it, that uploads
/// arrived intact, and that the generated code decoded every answer into a documented case.
///
/// ```swift
/// let report = try await OperationRunner(set: imported, checks: PetstoreChecks.all).run()
/// #expect(report.exitCode == 0, "\(TextReport.render(report, name: "petstore operations"))")
/// ```
///
/// The plain call comes first (no `Prefer`); every response of the contract it did not get is
/// then asked for by name (`Prefer: example=NAME`, in ``OperationCall/headerFields``). The
/// report is `mockapi verify`'s, one route per operation. `options.transport` is not used: the
/// generated client's own `ClientTransport` sends.
public struct OperationRunner: Sendable {
    public var set: ContractSet
    public var checks: [OperationCheck]
    public var options: VerifyOptions

    public init(set: ContractSet, checks: [OperationCheck], options: VerifyOptions = VerifyOptions()) {
        self.set = set
        self.checks = checks
        self.options = options
    }

    /// Runs against an in-process server on 127.0.0.1 and a free port.
    public func run() async throws -> VerifyReport {
        let server = try ContractRunner.inProcessServer(set)
        defer { server.stop(grace: 1) }
        return try await run(against: URL(string: server.baseURL)!, source: ServerJournal(server: server), target: "in-process server \(server.baseURL)")
    }

    /// Runs against a running `mockapi serve` at `baseURL` (serving the same contracts).
    public func run(against baseURL: URL, target: String? = nil) async throws -> VerifyReport {
        try await run(against: baseURL, source: AdminClient(baseURL: baseURL, token: options.adminToken), target: target)
    }

    private func run(against baseURL: URL, source: any JournalSource, target: String?) async throws -> VerifyReport {
        let started = Date()
        let cursor: JournalCursor
        do {
            cursor = JournalCursor(try await source.cursor())
        } catch {
            let reason = ServerUnreachable.reason(error) ?? "\(error)"
            throw ContractRunner.Unusable(description: "no mockapi server answers at \(baseURL.absoluteString): \(reason)")
        }
        let verifier = ContractRunner(set: set, checks: [], options: options)
        let claims = checks.map { ($0, contract(for: $0)) }
        let scope = options.scope.contractNames(in: set, claimed: claims.compactMap { $0.1.contract?.name })
        var results: [RouteResult] = []
        for (check, claim) in claims where claim.contract.map({ scope.contains($0.name) }) ?? true {
            var result = RouteResult(name: check.operationID, contract: claim.contract?.name ?? check.contract ?? "")
            if let contract = claim.contract {
                let operationStarted = Date()
                await verify(check, contract: contract, baseURL: baseURL, source: source, cursor: cursor, verifier: verifier, into: &result)
                result.seconds = Date().timeIntervalSince(operationStarted)
            } else {
                result.failures.append(.init(check: .coverage, message: claim.problem))
            }
            results.append(result)
        }
        let claimed = Set(results.map(\.contract))
        let uncovered = set.contracts.map(\.name).filter { scope.contains($0) && !claimed.contains($0) }
        var report = VerifyReport(
            routes: results, uncoveredContracts: uncovered, strictCoverage: options.strictCoverage, strictDrift: options.strictDrift,
            target: target ?? baseURL.absoluteString, seconds: Date().timeIntervalSince(started))
        report.deadLinks = FixtureLinks.dead(in: set, contracts: scope, deepLinks: options.deepLinks)
        return report
    }

    /// The contract a check claims: the one it names, else the one whose name is its operationId
    /// spelt without case or separators (`getPetById` is `get_pet_by_id`, as `mockapi import` names it).
    func contract(for check: OperationCheck) -> (contract: Contract?, problem: String) {
        if let name = check.contract {
            let found = set.contracts.first { $0.name == name }
            return (found, "operation \(check.operationID) claims contract \"\(name)\", but \(set.contractsDirectory)/ has no contract with that name")
        }
        let key = Self.squashed(check.operationID)
        let found = set.contracts.filter { Self.squashed($0.name) == key }
        if found.count == 1 { return (found[0], "") }
        let names = found.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return (
            nil,
            found.isEmpty
                ? "no contract in \(set.contractsDirectory)/ is named after operation \(check.operationID) (mockapi import names a contract after its operationId in snake_case): pass OperationCheck(_:contract:) the contract's name"
                : "operation \(check.operationID) could be contract \(names): pass OperationCheck(_:contract:) the one it is"
        )
    }

    /// Lowercase letters and digits only: how an operationId and a contract name are compared.
    static func squashed(_ name: String) -> String {
        String(name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
