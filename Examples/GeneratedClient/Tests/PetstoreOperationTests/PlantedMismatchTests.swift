import Foundation
import MockAPIVerify
import Testing

/// The gate fails, by operation and with the reason, when the generated client and the mock
/// disagree: each test plants one mismatch in a copy of the imported contracts (or in the client).
@Suite struct PlantedMismatchTests {
    /// A copy of the imported contracts and fixtures with `plant` applied to the text of one file.
    static func plantedCopy(_ file: String, _ plant: (String) -> String) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("petstore-planted-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: try importedFolder(), to: copy)
        let url = copy.appendingPathComponent(file)
        let planted = plant(try String(contentsOf: url, encoding: .utf8))
        try planted.write(to: url, atomically: true, encoding: .utf8)
        return copy
    }

    static func run(_ set: ContractSet, checks: [OperationCheck] = PetstoreOperations.all()) async throws -> VerifyReport {
        let report = try await OperationRunner(set: set, checks: checks).run()
        print(TextReport.render(report, name: "petstore operations"))
        return report
    }

    @Test func aFixtureTheGeneratedTypesCannotDecodeFailsItsOperation() async throws {
        // The mock's pet loses `name`, which the document's Pet requires.
        let folder = try Self.plantedCopy("fixtures/pet/get_pet_by_id.json") { $0.replacingOccurrences(of: #""name": "doggie","#, with: "") }
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Self.run(try importedContracts(in: folder))
        #expect(report.exitCode == 1)
        #expect(report.routes.filter { $0.outcome == .fail }.map(\.name) == ["getPetById"])
        let failure = try #require(report.routes.first { $0.name == "getPetById" }?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.message.contains("the generated client threw: name: missing key"), "\(failure.message)")
    }

    @Test func anAnswerOfAnotherMediaTypeFailsItsOperation() async throws {
        // The mock's order comes back as text/plain, which getOrderById's 200 does not offer.
        let folder = try Self.plantedCopy("contracts/store/get_order_by_id.json") {
            $0.replacingOccurrences(
                of: #""fixture": "store/get_order_by_id.json""#,
                with: #""fixture": "store/get_order_by_id.json", "headers": { "Content-Type": "text/plain" }"#)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Self.run(try importedContracts(in: folder))
        #expect(report.routes.filter { $0.outcome == .fail }.map(\.name) == ["getOrderById"])
        let failure = try #require(report.routes.first { $0.name == "getOrderById" }?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.message.contains("text/plain"), "\(failure.message)")
    }

    @Test func aClientThatSendsNoCredentialsBreaksTheSecuredOperations() async throws {
        let report = try await Self.run(try importedContracts(), checks: PetstoreOperations.all(authentication: nil))
        let failed = report.routes.filter { $0.outcome == .fail }
        // Every operation the document secures (api_key or OAuth): the pet operations and getInventory.
        #expect(
            failed.map(\.name) == [
                "addPet", "updatePet", "findPetsByStatus", "findPetsByTags", "getPetById", "updatePetWithForm", "deletePet", "uploadFile", "getInventory",
            ])
        for route in failed {
            #expect(route.failures.map(\.check) == [.contract], "\(route.name)")
        }
    }
}
