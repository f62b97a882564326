import ClientKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore
import MockAPIServer

/// Fires every client route at a mock server and proves the two sides agree: the request hit
/// the contract the route claims, uploads arrived byte for byte, and every response the route
/// handles decodes with the client's own decoder.
///
/// ```swift
/// let runner = ContractRunner(set: try ContractSet.load(contracts: c, fixtures: f), checks: RouteCheck.all(MyRouteKind.self))
/// let report = try await runner.run()   // an in-process server on 127.0.0.1:0
/// #expect(report.failed == 0)
/// ```
public struct ContractRunner: Sendable {
    public var set: ContractSet
    public var checks: [RouteCheck]
    /// Client settings (app name, token, …); the environment is replaced by the server's URL.
    public var clientConfiguration: ClientConfiguration
    public var strict: Bool

    public init(set: ContractSet, checks: [RouteCheck], clientConfiguration: ClientConfiguration? = nil, strict: Bool = false) {
        self.set = set
        self.checks = checks
        self.clientConfiguration = clientConfiguration
            ?? ClientConfiguration(environment: .local(port: 0), appName: "mockapi-verify", token: "mockapi-verify")
        self.strict = strict
    }

    /// Why a run could not happen at all (exit code 2).
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Verifies against an in-process server on 127.0.0.1 and a free port.
    public func run() async throws -> VerifyReport {
        var configuration = ServerConfiguration()
        configuration.port = 0
        let server: MockServer
        do { server = try MockServer(set: set, configuration: configuration) } catch {
            throw Unusable(description: "the mock server cannot start: \(error.description)")
        }
        defer { server.stop(grace: 1) }
        return try await run(against: URL(string: server.baseURL)!, target: "in-process server \(server.baseURL)")
    }

    /// Verifies against a running `mockapi serve` at `baseURL`.
    public func run(against baseURL: URL, target: String? = nil) async throws -> VerifyReport {
        let started = Date()
        let admin = AdminClient(baseURL: baseURL)
        do { try await admin.resetScenarios() } catch {
            throw Unusable(description: "no mockapi server answers at \(baseURL.absoluteString): \(error.localizedDescription)")
        }
        var configuration = clientConfiguration
        configuration.environment = APIEnvironment(name: "mockapi", baseURL: baseURL)
        configuration.retry = .none
        let client = APIClient(configuration: configuration)

        var results: [RouteResult] = []
        for (offset, check) in checks.enumerated() {
            var result = await verify(check, number: offset, client: client, admin: admin)
            if strict {
                result.failures += result.warnings.map { RouteResult.Failure(check: "drift", message: $0) }
            }
            results.append(result)
        }
        let claimed = Set(checks.map(\.contract))
        let uncovered = set.contracts.map(\.name).filter { !claimed.contains($0) }
        return VerifyReport(routes: results, uncoveredContracts: uncovered, strict: strict,
                            target: target ?? baseURL.absoluteString, seconds: Date().timeIntervalSince(started))
    }

    private func verify(_ check: RouteCheck, number: Int, client: APIClient, admin: AdminClient) async -> RouteResult {
        let started = Date()
        var result = await checkResponses(check, number: number, client: client, admin: admin)
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    private func checkResponses(_ check: RouteCheck, number: Int, client: APIClient, admin: AdminClient) async -> RouteResult {
        var result = RouteResult(name: check.name, contract: check.contract)
        guard let contract = set.contracts.first(where: { $0.name == check.contract }) else {
            result.failures.append(.init(check: "coverage", message: "route \(check.name) claims contract \"\(check.contract)\", but \(set.contractsDirectory)/ has no contract with that name"))
            return result
        }
        guard check.responses["default"] != nil else {
            result.failures.append(.init(check: "contract", message: "route \(check.name) declares no decoder for the \"default\" response of contract \"\(contract.name)\""))
            return result
        }
        do {
            try await admin.resetScenarios()
            for name in responseOrder(check) {
                let decoder = check.responses[name]!
                guard let index = contract.responseIndex(named: name) else {
                    result.failures.append(.init(check: "contract", message: "the client handles a response named \"\(name)\", but contract \"\(contract.name)\" (\(file(contract))) has none; it has: \(contract.responses.map(\.name).joined(separator: ", "))"))
                    continue
                }
                let exchange = try await send(check, contract: contract, response: name, number: number, client: client, admin: admin)
                if name == "default" { result.request = exchange.sent }
                if let failure = matchFailure(exchange, check: check, contract: contract) {
                    result.failures.append(failure)
                    break // the other responses would fail the same way
                }
                if name == "default" { result.failures += uploadFailures(exchange, check: check) }
                result.failures += responseFailures(exchange, contract: contract, index: index, decoder: decoder, client: client)
                if let drift = driftWarning(exchange, contract: contract, index: index, decoder: decoder, client: client) {
                    result.warnings.append(drift)
                }
            }
        } catch {
            result.failures.append(.init(check: "transport", message: "the request could not be sent: \(error)"))
        }
        return result
    }

    /// `default` first, then the other names in a stable order.
    private func responseOrder(_ check: RouteCheck) -> [String] {
        ["default"] + check.responses.keys.filter { $0 != "default" }.sorted()
    }

    func file(_ contract: Contract) -> String { "\(set.contractsDirectory)/\(contract.file)" }
}
