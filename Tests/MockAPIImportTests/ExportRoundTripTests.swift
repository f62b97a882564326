import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// `import(export(set))` is the set: every contract file as written, its file name, every fixture
/// byte and the set's defaults, through the document's text. The bundled set has two contracts on
/// one path told apart by `match`; the generated one uses every key of the format.
struct ExportRoundTripTests {
    @Test func theBundledSetComesBackWhole() throws {
        let original = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try expectRoundTrip(original)
    }

    @Test func aGeneratedSetThatUsesEveryKeyComesBackWhole() throws {
        var random = SplitMix64(seed: 0xE4B0)
        var contracts: [String: String] = [:], fixtures: [String: String] = [:]
        for index in 0..<60 {
            var contract = ContractGenerator.contract(&random, prefix: "/g\(index)")
            contract.name += "_\(index)"
            contracts["group\(index % 4)/file_\(index).json"] = contract.fileJSON.prettySerialized
            for path in ContractGenerator.fixturePaths(of: contract) { fixtures[path] = #"{"id": \#(index), "name": "ünï ✓"}"# }
        }
        contracts[SetDefaults.fileName] = #"{"query": {"client_id": {"required": false}}, "headers": {"User-Agent": {"prefix": ["App/", "Test/"]}}}"#
        let set = try TemporaryContractSet(contracts: contracts, fixtures: fixtures)
        try expectRoundTrip(try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures), expectedCount: 60)
    }

    @Test func contractsThatShareAnOperationEachKeepTheirBodyInItsSchema() throws {
        let original = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let document = OpenAPIExporter().document(for: original)
        let path = try #require(original.contracts.first { $0.name == "facebook_signup" }).request.path
        let operation = document.objectValue?["paths"]?.objectValue?[OpenAPIExporter.openAPIPath(path)]?.objectValue?["put"]?.objectValue
        let schema = operation?["requestBody"]?.objectValue?["content"]?.objectValue?["application/json"]?.objectValue?["schema"]
        #expect(schema?.objectValue?["anyOf"]?.arrayValue?.count == 2)
        #expect(operation?[OpenAPIExporter.contractsExtension]?.arrayValue?.count == 2)
    }

    private func expectRoundTrip(_ original: ContractSet, expectedCount: Int? = nil) throws {
        let scratch = try ScratchFolder()
        let file = scratch.url.appendingPathComponent("openapi.json")
        try Data(OpenAPIExporter().document(for: original).prettySerialized.utf8).write(to: file)
        // What carries the set must still be OpenAPI to other tools (extensions, anyOf bodies, list styles).
        let valid = try SpecValidator.run(file)
        #expect(valid.status == 0 && valid.output.contains("OK"), "\(valid.output)")
        let imported = try OpenAPIImporter().importFile(file)
        #expect(imported.skipped == 0 && imported.warnings.isEmpty, "\(imported.warnings)")
        let back = try scratch.writeAndLoad(imported)
        if let expectedCount { #expect(original.contracts.count == expectedCount) }
        #expect(back.contracts.count == original.contracts.count)
        #expect(back.defaults == original.defaults)
        for contract in original.contracts {
            let again = try #require(back.contract(contract.name), "\(contract.name)")
            #expect(again.source == contract.source, "\(contract.name)")
            #expect(again.file == contract.file)
            #expect(again.responses.map(\.body) == contract.responses.map(\.body), "\(contract.name): fixture bytes")
            #expect(again.responses.map(\.contentType) == contract.responses.map(\.contentType))
        }
    }
}
