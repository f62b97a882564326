import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Paths real clients send, over real sockets: an empty segment, a slug of several segments.
@Suite struct PathEdgeTests {
    @Test func emptySegmentAndMultiSegmentParameterReachTheirContracts() async throws {
        let set = try TemporaryContractSet(contracts: [
            "export.json": #"{"name": "export", "request": {"method": "POST", "path": "/v1/users//self/queue_export_data"}, "responses": {"default": {"status": 202}}}"#,
            "category.json": #"{"name": "category", "request": {"method": "GET", "path": "/v1/categories/{slug:path}"}, "responses": {"default": {"status": 200, "body": {}}}}"#,
        ])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let export = try RawHTTP.request(server.port, "POST", "/v1/users//self/queue_export_data")
            #expect(export.status == 202)
            #expect(export.headers["mockapi-contract"] == "export")
            let category = try RawHTTP.request(server.port, "GET", "/v1/categories/art/illustration")
            #expect(category.status == 200)
            #expect(category.headers["mockapi-contract"] == "category")
            #expect(try RawHTTP.request(server.port, "POST", "/v1/users/self/queue_export_data").status == 404)
        }
    }
}
