import Foundation
import MockAPITestSupport
import Testing

@testable import MockAPICore

/// `decode(encode(c)) == c`: the one encoder writes what the loader reads back, for every bundled
/// contract, for what a loaded set keeps as its source, and for a thousand generated contracts
/// that use every key of the format.
struct ContractFileRoundTripTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyBundledContractSurvivesEncodingAndDecoding() throws {
        let folder = Self.root.appendingPathComponent("contracts")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(SetDefaults.fileName) }.sorted()
        #expect(files.count >= 19)
        for relative in files {
            let json = try JSONParser.parse(Array(try Data(contentsOf: folder.appendingPathComponent(relative))))
            let decoded = try ContractFile.decode(json, file: relative)
            #expect(try ContractFile.decode(decoded.fileJSON, file: relative) == decoded, "\(relative)")
        }
    }

    @Test func aLoadedSetKeepsEachFileAsWrittenWithoutTheSetDefaults() throws {
        let set = try ContractSet.load(contracts: Self.root.appendingPathComponent("contracts"), fixtures: Self.root.appendingPathComponent("fixtures"))
        for contract in set.contracts {
            let source = try #require(contract.source)
            #expect(source.name == contract.name)
            #expect(source.responses.map(\.name) == contract.responses.map(\.name))
            // `_defaults.json` adds query keys and headers to the served contract, not to its file.
            #expect(source.headers.count <= contract.request.headers.count)
            #expect(try ContractFile.decode(source.fileJSON) == source)
        }
    }

    @Test(arguments: 0..<4) func generatedContractsSurviveEncodingAndDecoding(batch: UInt64) throws {
        var random = SplitMix64(seed: 0x5EED + batch)
        for _ in 0..<250 {
            let contract = ContractGenerator.contract(&random)
            let encoded = contract.fileJSON
            // Through text too: what is written to disk is what is parsed back.
            let reparsed = try JSONParser.parse(Array(encoded.prettySerialized.utf8))
            let decoded = try ContractFile.decode(reparsed)
            #expect(decoded == contract, "\(encoded.prettySerialized)")
        }
    }

    @Test func theEncoderLeavesDefaultsOutAndKeepsTheDocumentedKeyOrder() throws {
        var contract = ContractFile(name: "update_backing", method: .PUT, path: "/v1/projects/{id:int}")
        contract.query = [QueryExpectation(name: "include", required: false), QueryExpectation(name: "page", type: .int, enumValues: ["1", "2"])]
        contract.headers = [HeaderExpectation(name: "Authorization", prefix: "token ")]
        contract.json = [
            JSONKeyExpectation(key: "amount", type: .number),
            JSONKeyExpectation(key: "reward", required: false, schema: JSONValueSchema(type: .object, properties: [JSONKeyExpectation(key: "id", type: .int)])),
        ]
        var gone = ContractFile.Response(name: "gone", status: 204)
        gone.headers = [ContractFile.HeaderField("X-Reason", "deleted")]
        gone.delay = .uniform(min: 200, max: 800)
        contract.responses = [ContractFile.Response(name: "default", status: 200, fixture: "backings/backing.json"), gone]
        contract.sequence = ["gone", "default"]
        #expect(
            contract.fileJSON.serialized
                == #"{"name":"update_backing","request":{"method":"PUT","path":"/v1/projects/{id:int}","query":{"include":{"required":false},"page":{"type":"int","enum":[1,2]}},"headers":{"Authorization":{"prefix":"token "}},"json":{"amount":{"type":"number"},"reward":{"required":false,"properties":{"id":{"type":"int"}}}}},"responses":{"default":{"status":200,"fixture":"backings/backing.json"},"gone":{"status":204,"headers":{"X-Reason":"deleted"},"delay":{"min":200,"max":800}}},"sequence":["gone","default"]}"#
        )
    }
}

/// `schema/contract.schema.json` describes the format the loader reads: checked by Python's
/// `jsonschema` (an implementation not ours) over generated contracts that use every key.
struct GeneratedContractSchemaTests {
    @Test func generatedContractsValidateAgainstTheEditorSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 0xC0FFEE)
        for index in 0..<300 {
            let contract = ContractGenerator.contract(&random)
            try Data(contract.fileJSON.prettySerialized.utf8).write(to: folder.appendingPathComponent("c\(index).json"))
        }
        // One file the loader refuses, so the check is seen to fail.
        try Data(#"{"name": "bad", "request": {"method": "GET", "path": "/x", "body": {"nullable": 1}}, "responses": {"default": {"status": 200}}}"#.utf8)
            .write(to: folder.appendingPathComponent("z-bad.json"))
        let (status, output) = try runSchemaCheck(folder)
        #expect(status == 1)
        #expect(output.contains("300 passed, 1 failed"), "\(output)")
        #expect(output.contains("z-bad.json"))
    }

    private func runSchemaCheck(_ folder: URL) throws -> (Int32, String) {
        let run = try ExternalTool.run(["python3", ContractFileRoundTripTests.root.appendingPathComponent("scripts/check-contract-schema").path, folder.path])
        return (run.status, run.output)
    }
}
