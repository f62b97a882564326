import ClientKit
import ExampleAPIChecks
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// The bundled client's checks, as `mockapi verify` runs them.
func bundledChecks(configuration: ClientConfiguration = BundledClientChecks.configuration) -> [RouteCheck] {
    RouteCheck.all(RouteKind.self, configuration: configuration)
}

/// The bundled client's checks with the request of the one called `name` changed by
/// `transform`: a client route that builds its request differently from the contract.
func checks(replacing name: String, with transform: (inout Endpoint) -> Void) -> [RouteCheck] {
    #expect(RouteKind.allCases.contains { $0.contractName == name }, "the bundled client has no route called \(name)")
    return RouteKind.allCases.map { kind in
        var endpoint = kind.sampleEndpoint
        if kind.contractName == name { transform(&endpoint) }
        return RouteCheck(
            name: kind.contractName, contract: kind.contractName, endpoint: endpoint,
            configuration: BundledClientChecks.configuration, responses: kind.responseDecoders)
    }
}

/// The bundled client's checks with the one called `name` changed by `transform` (its declared responses).
func checks(changing name: String, with transform: (inout RouteCheck) -> Void) -> [RouteCheck] {
    bundledChecks().map { check in
        var check = check
        if check.name == name { transform(&check) }
        return check
    }
}

/// A fresh copy of the bundled contracts and fixtures, for a test to change one thing in.
func bundledCopy() throws -> TemporaryContractSet {
    try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
}

/// Runs the contract runner against an in-process server serving `set` (the bundled API when nil).
func verify(_ set: TemporaryContractSet? = nil, checks: [RouteCheck] = bundledChecks(), strict: Bool = false) async throws -> VerifyReport {
    let loaded = try ContractSet.load(contracts: set?.contracts ?? BundledAPI.contracts, fixtures: set?.fixtures ?? BundledAPI.fixtures)
    return try await ContractRunner(set: loaded, checks: checks, strict: strict).run()
}

/// A bundled run in which exactly one route fails: `backing` asks for `/backer/` instead of `/backers/`.
func runWithFailingBacking() async throws -> VerifyReport {
    try await verify(checks: checks(replacing: "backing") { $0.path = "/v1/projects/42/backer/2001" })
}

/// The failure of `name` when it is the run's only failing route and fails exactly one check.
func onlyFailure(of name: String, in report: VerifyReport) throws -> RouteResult.Failure {
    #expect(report.failedRouteNames == [name])
    let route = try #require(report.route(name))
    #expect(route.failures.count == 1, "\(route.failures)")
    return try #require(route.failures.first)
}

extension VerifyReport {
    /// The routes that failed, in run order.
    var failedRouteNames: [String] { routes.filter { $0.outcome == .fail }.map(\.name) }

    func route(_ name: String) -> RouteResult? { routes.first { $0.name == name } }
}

extension RouteResult.Failure {
    /// The message's lines, for assertions on one line of a block.
    var lines: [String] { message.components(separatedBy: "\n") }

    /// The line after the one ending in `marker` (`nearest:`), where a block lists what it found.
    func line(after marker: String) -> String? {
        guard let index = lines.firstIndex(where: { $0.hasSuffix(marker) }), index + 1 < lines.count else { return nil }
        return lines[index + 1]
    }
}

extension TemporaryContractSet {
    /// Why an edit of a copied file could not be made as asked.
    struct EditError: Error, CustomStringConvertible {
        var description: String
    }

    /// Replaces the single occurrence of `old` in the file at `path` (relative to the set's
    /// root, `fixtures/users/user.json`), so a test changes exactly the one thing it names.
    func replace(_ old: String, with new: String, in path: String) throws {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        let occurrences = text.components(separatedBy: old).count - 1
        guard occurrences == 1 else {
            throw EditError(description: "\(path) has \(occurrences) occurrences of \(old.debugDescription), expected 1")
        }
        try write(text.replacingOccurrences(of: old, with: new), to: path)
    }
}
