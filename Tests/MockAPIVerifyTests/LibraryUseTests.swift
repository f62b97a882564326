import ClientKit
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import MockAPIVerify
import MockAPIVerifyClientKit
import Testing

/// A team's own client, verified from its own test suite through the runner's public API:
/// the pets client (PetsClient/) against the pets contracts (``PetsAPI``).
@Suite struct LibraryUseTests {
    private func verifyPets(_ set: TemporaryContractSet) async throws -> VerifyReport {
        let contracts = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
        let runner = ContractRunner(set: contracts, checks: RouteCheck.all(PetRouteKind.self, configuration: ClientConfiguration(environment: .local(port: 0))))
        return try await runner.run()
    }

    @Test func petsClientPassesItsOwnContracts() async throws {
        let report = try await verifyPets(try PetsAPI.contractSet())

        #expect(report.routes.map(\.name) == ["list_pets", "pet", "adopt_pet"])
        #expect(report.routes.map(\.outcome) == [.pass, .pass, .pass])
        #expect(report.routes.flatMap(\.warnings) == [])
        #expect(report.uncoveredContracts == [])
        #expect(report.exitCode == 0)
        #expect(report.routes.first?.request?.url.hasSuffix("/v2/pets?species=dog&page=1") == true)
    }

    @Test func brokenPetsFixtureFailsTheRouteThatServesIt() async throws {
        let set = try PetsAPI.contractSet()
        try set.write(
            #"{"pets": [{"id": 7, "name": "Biscuit", "species": "dog"}, {"id": 9, "name": "Pickle"}], "total_count": 2}"#,
            to: "fixtures/pets/list.json")

        let report = try await verifyPets(set)

        #expect(report.routes.map(\.outcome) == [.fail, .pass, .pass])
        #expect(report.exitCode == 1)
        let failure = try #require(report.routes.first?.failures.first)
        #expect(failure.check == .decoding)
        #expect(failure.message.hasPrefix(#"response "default" does not decode into PetPage:"#))
        #expect(failure.message.hasSuffix("fixtures/pets/list.json: pets[1].species: missing key"))
    }

    @Test func petsContractRenamingABodyKeyFailsTheAdoptRoute() async throws {
        let set = try PetsAPI.contractSet()
        try set.write(
            #"""
            {"name": "adopt_pet", "request": {"method": "POST", "path": "/v2/pets/{id:int}/adoption", "json": {"adopter": {"type": "string"}}},
             "responses": {"default": {"status": 200, "fixture": "pets/adopted.json"}}}
            """#, to: "contracts/pets/adopt_pet.json")

        let report = try await verifyPets(set)

        #expect(report.routes.map(\.outcome) == [.pass, .pass, .fail])
        let failure = try #require(report.routes.last?.failures.first)
        #expect(failure.check == .contract)
        #expect(
            failure.message.hasSuffix(
                """
                problem:  the request breaks the contract (2 violations):
                  body.adopter: required key is missing
                  body.adopter_name: unexpected key (the contract names: adopter)
                """))
    }
}
