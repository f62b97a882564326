import Foundation
import MockAPITestSupport
import Testing

/// schema/contract.schema.json, the schema editors use, checked by a real JSON Schema validator
/// (Python's jsonschema) against the bundled contracts and against broken ones.
@Suite struct ContractSchemaTests {
    private func check(_ paths: [String]) throws -> (status: Int32, output: String) {
        let run = try ExternalTool.run(["python3", BundledAPI.root.appendingPathComponent("scripts/check-contract-schema").path] + paths)
        return (run.status, run.stdout)
    }

    @Test func bundledContractsFollowTheSchema() throws {
        let result = try check([])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix(" passed, 0 failed\n"))
    }

    /// What traffic inference writes (match, sequence, repeated, when.json, example) is in the schema too.
    @Test func contractsImportedFromTheAcceptanceCaptureFollowTheSchema() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("schema-capture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let capture = BundledAPI.root.appendingPathComponent("Tests/MockAPIImportTests/Resources/mobile-capture.har")
        let imported = try CommandLineRunner.run(["import", "har", capture.path, "--out", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try check([out.appendingPathComponent("contracts").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix("66 passed, 0 failed\n"))
    }

    @Test func brokenContractsAreNamedWithTheirPath() throws {
        let set = try TemporaryContractSet(contracts: [
            "a.json": #"{"name": "a", "request": {"method": "FETCH", "path": "/a"}, "responses": {"default": {"status": 200}}}"#,
            "b.json": #"{"name": "b", "request": {"method": "GET", "path": "/b", "query": {"n": {"type": "integer"}}}, "responses": {"default": {"status": 200}}}"#,
            "c.json": #"{"name": "c", "request": {"method": "GET", "path": "/c"}, "responses": {"ok": {"status": 200}}}"#,
        ])
        let result = try check([set.contracts.path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map { $0.replacingOccurrences(of: set.contracts.path + "/", with: "") }
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("a.json: $.request.method: 'FETCH' is not one of"))
        #expect(lines[1].hasPrefix("b.json: $.request.query.n.type: 'integer' is not one of"))
        #expect(lines[2] == "c.json: $.responses: 'default' is a required property")
        #expect(lines[3] == "0 passed, 3 failed")
    }
}
