import Foundation
import MockAPISessionClient
import MockAPITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `MockAPISession`, the Foundation-only client a UI test uses, against a real server.
@Suite struct SessionClientTests {
    @Test func createResetRequestsDelete() async throws {
        let set = try TemporaryContractSet(contracts: ["steps.json": SessionTests.steps])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let first = try await MockAPISession.create(server: server.baseURL)
            let second = try await MockAPISession.create(server: server.baseURL)
            #expect(first.id != second.id)
            #expect(first.baseURL.absoluteString == "\(server.baseURL.absoluteString)/s/\(first.id)")

            func step(_ session: MockAPISession) async throws -> Int? {
                let (data, _) = try await URLSession.shared.data(from: session.baseURL.appendingPathComponent("steps"))
                struct Step: Decodable { var step: Int }
                return try JSONDecoder().decode(Step.self, from: data).step
            }
            #expect(try await step(first) == 1)
            #expect(try await step(first) == 2)
            #expect(try await step(second) == 1)
            #expect(try await first.requests(contract: "steps").map(\.path) == ["/steps", "/steps"])
            #expect(try await first.requests(contract: "other").isEmpty)
            #expect(try await second.requests().count == 1)

            try await first.reset()
            #expect(try await first.requests().isEmpty)
            #expect(try await step(first) == 1)

            try await first.delete()
            await #expect(throws: MockAPISession.Failure.self) { try await first.requests() }
            await #expect(throws: MockAPISession.Failure.self) { try await first.delete() }
            #expect(try await step(second) == 2)

            // An id chosen here (a balancer routes by it before the session exists).
            let id = MockAPISession.randomID()
            let chosen = try await MockAPISession.create(server: server.baseURL, id: id)
            #expect(chosen.id == id)
            #expect(try await step(chosen) == 1)
            await #expect(throws: MockAPISession.Failure.self) { try await MockAPISession.create(server: server.baseURL, id: id) }
        }
    }
}
