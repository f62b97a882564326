public import Foundation
public import MockAPICore
public import MockAPIServer

/// A server started for a test, on 127.0.0.1 and a free port.
public struct RunningMockServer: Sendable {
    package let server: MockServer

    public var port: Int { Int(server.port) }
    public var baseURL: URL { URL(string: server.baseURL)! }

    /// What arrived so far, oldest first (read in-process, not over HTTP).
    public func journal() -> [JournalEntry] { server.journal.entries() }

    /// The journaled requests that fit every filter given, oldest first, WireMock-verify style:
    /// `#expect(server.requests(contract: "backing").count == 1)`.
    /// - Parameter path: exact, or ending in `*` for a prefix (`/v1/projects/*`).
    public func requests(
        contract: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil,
        unmatched: Bool = false, violations: Bool = false
    ) -> [JournalEntry] {
        server.journal.entries(
            matching: JournalQuery(
                contract: contract, unmatched: unmatched, violations: violations,
                method: method?.uppercased(), path: path, status: status))
    }
    public func resetJournal() { server.journal.reset() }
    public func resetScenarios() { server.responder.scenarios.reset() }
}

/// Runs `body` against a mock server on 127.0.0.1 port 0 serving the given contract set
/// (the bundled one by default), and stops it afterwards, whatever happens.
///
/// ```swift
/// try await withMockServer { server in
///     let (data, _) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("v1/categories"))
/// }
/// ```
public func withMockServer<T>(
    contracts: URL = BundledAPI.contracts,
    fixtures: URL = BundledAPI.fixtures,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (RunningMockServer) async throws -> T
) async throws -> T {
    let set = try ContractSet.load(contracts: contracts, fixtures: fixtures)
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 2
    configure(&configuration)
    let server = try MockServer(set: set, configuration: configuration)
    defer { server.stop(grace: 1) }
    return try await body(RunningMockServer(server: server))
}
