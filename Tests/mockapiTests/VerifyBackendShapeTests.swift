import Foundation
import MockAPITestSupport
import Testing

/// `verify-backend` holds a real answer to its response's `schema` where one is declared: a key
/// the schema lets be absent may be missing, a value of the wrong type or outside the enum fails.
struct VerifyBackendShapeTests {
    /// The bundle with `backing`'s default response given a schema: `amount` a number, `status`
    /// one of three values, `reward_id` optional, any other key allowed.
    private func bundleWithBackingSchema() throws -> TemporaryContractSet {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let schema = #"""
            {"properties": {"id": {"type": "int", "format": "int64"}, "amount": {"type": "number"},
              "status": {"type": "string", "enum": ["pledged", "collected", "canceled"]},
              "reward_id": {"type": "int", "required": false}}, "otherKeys": true}
            """#
        let file = set.contracts.appendingPathComponent("backings/backing.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let old = #""default": {"status": 200, "fixture": "backings/backing.json"}"#
        #expect(text.components(separatedBy: old).count == 2)
        try set.write(
            text.replacingOccurrences(of: old, with: #""default": {"status": 200, "fixture": "backings/backing.json", "schema": \#(schema)}"#),
            to: "contracts/backings/backing.json")
        return set
    }

    private func run(_ set: TemporaryContractSet, drift: [String]) throws -> CommandLineRunner.Result {
        let standIn = try ExternalTool.start(
            [
                "python3", BundledAPI.root.appendingPathComponent("scripts/standin-backend").path,
                "--contracts", set.contracts.path, "--fixtures", set.fixtures.path,
            ] + drift)
        defer { standIn.stop() }
        let url = standIn.firstLine.replacingOccurrences(of: "listening on ", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        return try CommandLineRunner.run([
            "verify-backend", "--base-url", url, "--contracts", set.contracts.path, "--fixtures", set.fixtures.path, "--contract", "backing",
            "--format", "text",
        ])
    }

    @Test func aWrongTypeFailsAgainstTheSchema() throws {
        let result = try run(try bundleWithBackingSchema(), drift: ["--stringify", "backing:amount"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("$.amount: expected number, found string (schema of response default)"), "\(result.stdout)")
    }

    @Test func aKeyTheSchemaLetsBeAbsentMayBeMissing() throws {
        let result = try run(try bundleWithBackingSchema(), drift: ["--rename", "backing:reward_id:reward_ref"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
    }
}
