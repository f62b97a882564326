import ClientKit
import ExampleAPI
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RouteKind` against the bundled contract files: names, response names, and every response
/// decoding into the kind's model, offline and over HTTP.
@Suite struct RouteKindTests {
    @Test func everyContractHasExactlyOneRouteKind() throws {
        let contracts = try BundledContract.all()

        #expect(Set(contracts.map(\.name)) == Set(RouteKind.allCases.map(\.rawValue)))
        #expect(contracts.count == RouteKind.allCases.count)
    }

    @Test func namedResponsesMatchTheContracts() throws {
        for contract in try BundledContract.all() {
            let kind = try #require(RouteKind(rawValue: contract.name))
            #expect(Set(contract.responses.keys) == Set(["default"] + kind.namedResponses.keys), "\(contract.name)")
        }
    }

    @Test func everyBundledResponseBodyDecodesIntoItsModel() throws {
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 1)))
        for contract in try BundledContract.all() {
            let kind = try #require(RouteKind(rawValue: contract.name))
            for (name, body) in contract.responses {
                #expect(throws: Never.self, "\(contract.name).\(name)") {
                    try kind.decode(body, response: name, using: client)
                }
            }
        }
    }

    @Test func modelsReadEveryKeyTheFixturesHold() throws {
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 1)))
        for contract in try BundledContract.all() {
            let kind = try #require(RouteKind(rawValue: contract.name))
            for (name, body) in contract.responses {
                // Re-encoding drops keys the model did not read; nulls re-encode as absent.
                let model = try #require(try kind.decode(body, response: name, using: client) as? any Encodable)
                let reencoded = try client.encoder.encode(model)
                let unread = try keyPaths(in: body).subtracting(keyPaths(in: reencoded))
                #expect(unread.isEmpty, "\(contract.name).\(name) never reads \(unread.sorted())")
            }
        }
    }

    @Test func unknownResponseNameIsReported() {
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 1)))

        #expect(throws: UnhandledResponse(kind: .categories, name: "not_found")) {
            try RouteKind.categories.decode(Data("{}".utf8), response: "not_found", using: client)
        }
    }

    @Test func everySampleMatchesItsContractAndDecodes() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client
            for kind in RouteKind.allCases {
                let route = kind.sample
                let (data, response) = try await client.send(route)

                #expect(response.statusCode == 200, "\(kind.rawValue): \(String(decoding: data, as: UTF8.self))")
                #expect(response.value(forHTTPHeaderField: "Mockapi-Contract") == kind.rawValue)
                #expect(throws: Never.self, "\(kind.rawValue)") {
                    try kind.decode(data, using: client, endpoint: route.endpoint.description)
                }
            }
        }
    }

    @Test func everyNamedResponseDecodesOverHTTP() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client
            for kind in RouteKind.allCases {
                for name in kind.namedResponses.keys.sorted() {
                    let (data, response) = try await client.send(kind.sample.preferring(name))

                    #expect(response.value(forHTTPHeaderField: "Mockapi-Contract") == kind.rawValue)
                    #expect(throws: Never.self, "\(kind.rawValue).\(name)") {
                        try kind.decode(data, response: name, using: client)
                    }
                }
            }
        }
    }

    /// Every non-null key path in a JSON document: `.project.creator.id`, `.activities[].id`.
    private func keyPaths(in data: Data) throws -> Set<String> {
        func walk(_ value: JSONValue, _ prefix: String) -> Set<String> {
            switch value {
            case .object(let object):
                return object.members.reduce(into: []) { paths, member in
                    if case .null = member.value { return }
                    paths.insert(prefix + "." + member.key)
                    paths.formUnion(walk(member.value, prefix + "." + member.key))
                }
            case .array(let items):
                return items.reduce(into: []) { $0.formUnion(walk($1, prefix + "[]")) }
            default:
                return []
            }
        }
        return walk(try JSONParser.parse(data), "")
    }
}
