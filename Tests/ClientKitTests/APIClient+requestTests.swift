import ClientKit
import Foundation
import FoundationNetworking
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// The generic request path against a real mock server on loopback.
@Suite struct APIClientRequestTests {
    typealias Widget = TestAPI.Widget

    @Test func decodesAModel() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let widget = try await TestAPI.client(port: server.port).request(Endpoint(.get, "/v1/widgets/1"), as: Widget.self)
            #expect(widget == Widget(id: 1, displayName: "Gear"))
        }
    }

    @Test func namedErrorResponseBecomesAServerErrorWithItsEnvelope() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let endpoint = Endpoint(.get, "/v1/widgets/1", headers: ["Prefer": "example=not_found"])
            let error = await #expect(throws: APIError.self) {
                try await TestAPI.client(port: server.port).request(endpoint, as: Widget.self)
            }
            guard case .server(let status, let envelope, _)? = error else {
                Issue.record("expected a server error, got \(String(describing: error))")
                return
            }
            #expect(status == 404)
            #expect(envelope == ErrorEnvelope(errorMessages: ["Widget not found"], httpCode: 404, ksrCode: "not_found"))
        }
    }

    @Test func successfulNonJSONAnswerIsAServerError() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let endpoint = Endpoint(.get, "/v1/widgets/1", headers: ["Prefer": "example=portal"])
            let error = await #expect(throws: APIError.self) {
                try await TestAPI.client(port: server.port).request(endpoint, as: Widget.self)
            }
            guard case .server(200, nil, let body)? = error else {
                Issue.record("expected a server error without envelope, got \(String(describing: error))")
                return
            }
            #expect(String(decoding: body, as: UTF8.self).contains("Wi-Fi"))
        }
    }

    @Test func emptyBodyIsNilForAnOptionalModel() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let client = TestAPI.client(port: server.port)
            let gone = Endpoint(.get, "/v1/widgets/1", headers: ["Prefer": "example=gone"])
            let empty = try await client.request(gone, as: Widget?.self)
            let present = try await client.request(Endpoint(.get, "/v1/widgets/1"), as: Widget?.self)
            #expect(empty == nil)
            #expect(present == Widget(id: 1, displayName: "Gear"))
        }
    }

    @Test func oneBadElementFailsTheWholeArrayWithItsIndex() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let error = await #expect(throws: APIError.self) {
                try await TestAPI.client(port: server.port).request(Endpoint(.get, "/v1/widgets"), as: [Widget].self)
            }
            guard case .decoding(let failure)? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
            #expect(failure.description == "GET /v1/widgets: [1].id: expected Int, found String")
        }
    }

    @Test func queryArraysAndReservedCharactersReachTheServerIntact() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let client = TestAPI.client(port: server.port)
            let search = Endpoint(
                .get, "/v1/widgets",
                query: [
                    QueryItem("ids", ["1", "2"]), QueryItem("missing", nil), QueryItem("q", "a b+c&d=e/f?g#h"),
                ])
            // The contract's `when` only matches if the server decoded `q` to exactly this value.
            let found = try await client.request(search, as: [Widget].self)
            #expect(found == [Widget(id: 7, displayName: "Found")])
            let entry = try #require(server.journal().last)
            #expect(entry.contract == "widgets")
            #expect(entry.query.hasPrefix("ids[]=1&ids[]=2&q="))
        }
    }

    @Test func jsonBodyAndTokenSatisfyTheContract() async throws {
        struct Rename: Encodable, Sendable { var displayName: String; var rank: Int; var note: String? }
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let client = TestAPI.client(port: server.port, token: "secret")
            let rename = Endpoint(.put, "/v1/widgets/1", body: .json(Rename(displayName: "Renamed", rank: 2)))
            let renamed = try await client.request(rename, as: Widget.self)
            #expect(renamed.displayName == "Renamed")
            #expect(server.journal().last?.status == 200)
        }
    }

    @Test func uploadArrivesAsTheContractExpects() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x2D, count: 5_000))
            let upload = Upload(partName: "image", fileName: "cover", data: png)
            let endpoint = Endpoint(.post, "/v1/widgets/1/image", body: .upload(upload))
            _ = try await TestAPI.client(port: server.port).request(endpoint, as: Widget.self)
            let part = try #require(server.journal().last?.parts.first)
            #expect(part.name == "image")
            #expect(part.filename == "cover")
            #expect(part.contentType == "image/png")
            #expect(part.bytes == png.count)
        }
    }

    @Test func allRunsConcurrentlyAndKeepsOrder() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let routes = [3, 1, 2].map { Endpoint(.get, "/v1/lookup", query: [QueryItem("id", .int($0))]) }
            let widgets = try await TestAPI.client(port: server.port).all(routes, as: Widget.self)
            #expect(widgets.map(\.id) == [3, 1, 2])
        }
    }

    @Test func allFailsWhenOneRequestFails() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let routes = [1, 404, 2].map { Endpoint(.get, "/v1/lookup", query: [QueryItem("id", .int($0))]) }
            let error = await #expect(throws: APIError.self) {
                try await TestAPI.client(port: server.port).all(routes, as: Widget.self)
            }
            guard case .server(404, _, _)? = error else {
                Issue.record("expected the 404, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func resourceParsesANonJSONBody() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let report = Resource(Endpoint(.get, "/v1/report")) { String(decoding: $0, as: UTF8.self) }
            let lines = try await TestAPI.client(port: server.port).load(report.map { $0.split(separator: "\n").count })
            #expect(lines == 2)
        }
    }

    @Test func sendReturnsTheRawAnswerWhateverTheStatus() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let client = TestAPI.client(port: server.port)
            let (data, response) = try await client.send(Endpoint(.get, "/v1/widgets/1", headers: ["Prefer": "code=404"]))
            #expect(response.statusCode == 404)
            #expect(response.value(forHTTPHeaderField: "Mockapi-Contract") == "widget")
            #expect(try client.decode(ErrorEnvelope.self, from: data).ksrCode == "not_found")
        }
    }

    @Test func unreachableServerIsATransportError() async throws {
        let set = try TestAPI.contracts()
        let port = try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in server.port }
        // The server has stopped: nothing listens on its port any more.
        let error = await #expect(throws: APIError.self) {
            try await TestAPI.client(port: port).request(Endpoint(.get, "/v1/widgets/1"), as: Widget.self)
        }
        guard case .transport? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }
}
