import ClientKit
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

@Suite struct APIClientPagesTests {
    @Test func walksEveryPageUntilNoNextURL() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            var items: [Int] = []
            for try await page in TestAPI.client(port: server.port).pages(Endpoint(.get, "/v1/feed"), as: TestAPI.FeedPage.self) {
                items += page.items
            }
            #expect(items == [1, 2, 3, 4, 5])
            #expect(server.journal().map(\.query) == ["", "page=2", "page=3"])
        }
    }

    @Test func leavingTheLoopStopsTheWalk() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            for try await page in TestAPI.client(port: server.port).pages(Endpoint(.get, "/v1/feed"), as: TestAPI.FeedPage.self) {
                #expect(page.items == [1, 2])
                break
            }
            #expect(server.journal().count == 1)
        }
    }
}
