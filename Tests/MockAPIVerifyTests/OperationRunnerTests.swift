import Foundation
import MockAPITestSupport
import MockAPIVerify
import Testing

/// The runner for generated clients, on a client written the way swift-openapi-generator writes
/// one (the request built inside the call, an `Output` enum with an `undocumented` case, the body
/// decoded before the call returns), so that the runner is tested without the generator.
/// Examples/GeneratedClient runs it on a real generated client (scripts/generated-client-check).
@Suite struct OperationRunnerTests {
    struct Pet: Decodable, Sendable {
        var id: Int
        var name: String
    }

    /// What the generator makes of an operation's responses: one case per documented status.
    enum GetPetOutput: Sendable {
        case ok(Pet)
        case notFound
        case undocumented(statusCode: Int, Data)
    }

    /// The stand-in's `getPetById`: documents 200 and 404.
    static func getPetById(_ id: String, call: OperationCall, body: Data? = nil, sentBody: Data? = nil) async throws -> GetPetOutput {
        var request = URLRequest(url: call.serverURL.appendingPathComponent("pets/\(id)"))
        for (name, value) in call.headerFields { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpMethod = "PUT"
            request.httpBody = body
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        // What the client's middleware saw: a transport below it may still change the body.
        let recorded = request
        if let sentBody { request.httpBody = sentBody }
        call.record(request: recorded)
        let (data, response) = try await Transport.shared.send(request)
        call.record(response: response, body: data)
        switch response.statusCode {
        case 200: return .ok(try JSONDecoder().decode(Pet.self, from: data))
        case 404: return .notFound
        default: return .undocumented(statusCode: response.statusCode, data)
        }
    }

    static let contract = #"""
        {"name": "get_pet_by_id", "request": {"method": "GET", "path": "/pets/{id:int}"},
         "responses": {"default": {"status": 200, "fixture": "pet.json"}, "not_found": {"status": 404, "body": {"error": "no pet"}}}}
        """#

    static func run(_ checks: [OperationCheck], contracts: [String: String] = ["get_pet.json": contract], pet: String = #"{"id": 1, "name": "Rex"}"#)
        async throws -> VerifyReport
    {
        let set = try TemporaryContractSet(contracts: contracts, fixtures: ["pet.json": pet])
        let loaded = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
        return try await OperationRunner(set: loaded, checks: checks, options: VerifyOptions(strictCoverage: true)).run()
    }

    static let getPet = OperationCheck("getPetById") { call in try await getPetById("1", call: call) }

    @Test func everyDocumentedResponseIsReachedAndDecoded() async throws {
        let report = try await Self.run([Self.getPet])
        #expect(report.exitCode == 0, "\(TextReport.render(report))")
        let route = try #require(report.routes.first)
        #expect(route.name == "getPetById")
        #expect(route.contract == "get_pet_by_id")
        #expect(route.request?.method == "GET")
        #expect(route.request?.url.hasSuffix("/pets/1") == true)
    }

    @Test func aStatusTheClientDoesNotDocumentFails() async throws {
        let contract = Self.contract.replacingOccurrences(
            of: #""not_found""#, with: #""teapot": {"status": 418}, "not_found""#)
        let report = try await Self.run([Self.getPet], contracts: ["get_pet.json": contract])
        let route = try #require(report.routes.first)
        #expect(report.exitCode == 1)
        #expect(route.failures.map(\.check) == [.status])
        #expect(
            route.failures.first?.message
                == #"response "teapot" (status 418): the generated client returned .undocumented(statusCode: 418): the document declares no status 418 (nor a default) for getPetById"#
        )
    }

    @Test func aBodyTheGeneratedTypesCannotDecodeFails() async throws {
        let report = try await Self.run([Self.getPet], pet: #"{"id": 1, "title": "Rex"}"#)
        let route = try #require(report.routes.first)
        #expect(route.failures.map(\.check) == [.decoding])
        let message = try #require(route.failures.first?.message)
        #expect(message.hasPrefix(#"the plain call's answer, response "default" (status 200, "#), "\(message)")
        #expect(message.contains(#"/fixtures/pet.json): the generated client threw: name: missing key"#), "\(message)")
    }

    @Test func aRequestThatMissesItsContractFailsAsVerifySaysIt() async throws {
        let report = try await Self.run([OperationCheck("getPetById") { call in try await Self.getPetById("rex", call: call) }])
        let route = try #require(report.routes.first)
        #expect(route.failures.map(\.check) == [.contract])
        let message = try #require(route.failures.first?.message)
        #expect(message.contains("problem:  no contract matches GET /pets/rex"), "\(message)")
        #expect(message.contains(#"segment 2 is "rex", not an int for {id:int} in /pets/{id:int}"#), "\(message)")
    }

    @Test func aBodyCutShortOnTheWayFailsAsAnUpload() async throws {
        let contract = #"""
            {"name": "replace_pet", "request": {"method": "PUT", "path": "/pets/{id:int}",
                                                "body": {"contentTypes": ["application/octet-stream"]}},
             "responses": {"default": {"status": 200, "fixture": "pet.json"}}}
            """#
        let image = Data(repeating: 0xFF, count: 64)
        let check = OperationCheck("replacePet") { call in try await Self.getPetById("1", call: call, body: image, sentBody: image.prefix(10)) }
        let report = try await Self.run([check], contracts: ["replace_pet.json": contract])
        let route = try #require(report.routes.first)
        #expect(route.failures.map(\.check) == [.upload])
        #expect(route.failures.first?.message.hasSuffix("problem:  the body did not arrive whole: sent 64 bytes, the server received 10") == true)
    }

    @Test func anOperationIsMatchedToItsContractByName() async throws {
        let renamed = Self.contract.replacingOccurrences(of: "get_pet_by_id", with: "fetch_pet")
        let report = try await Self.run([Self.getPet, OperationCheck("getPet", contract: "fetch_pet", call: Self.getPet.call)], contracts: ["get_pet.json": renamed])
        #expect(report.routes.map(\.outcome) == [.fail, .pass])
        let message = try #require(report.routes.first?.failures.first?.message)
        #expect(message.contains("/contracts/ is named after operation getPetById (mockapi import names a contract after its operationId"), "\(message)")
        #expect(report.uncoveredContracts.isEmpty)
    }
}
