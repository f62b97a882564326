// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import ClientKit
import MockAPICore   // the journal entries' fields (under MemberImportVisibility)
import MockAPITestSupport
import Testing

@Test func projectNotFoundMapsToTheEnvelope() async throws {
    try await withMockServer(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures) { server in   // your folders here
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: server.port)))
        let notFound = Endpoint(.get, "/v1/projects/1", headers: ["Prefer": "example=not_found"])
        await #expect(throws: APIError.self) { try await client.request(notFound, as: Project.self) }
        #expect(server.journal().last?.contract == "project")
        #expect(server.requests(contract: "project", status: 404).count == 1)   // WireMock-verify style
    }
}
