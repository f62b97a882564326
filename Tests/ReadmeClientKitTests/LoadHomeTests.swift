import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// The README's `loadHome` (BackerRoute.swift, generated from the README), run against the
/// bundled contracts: every request it makes keeps a contract.
@Test func readmeLoadHomeRunsAgainstTheBundledContracts() async throws {
    try await withMockServer { server in
        let home = try await loadHome(launchValue: server.baseURL.absoluteString, token: nil)

        #expect(home.project.id == 42)
        #expect(home.activities.count > 0)
        #expect(home.categories.hasPrefix("{"))
        #expect(server.requests(unmatched: true).isEmpty)
        #expect(server.requests(violations: true).isEmpty)
        #expect(Set(server.journal().compactMap(\.contract)) == ["project", "discover", "activities", "categories"])
    }
}
