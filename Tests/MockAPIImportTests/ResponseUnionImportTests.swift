import Foundation
import MockAPICore
import Testing

@testable import MockAPIImport

/// A response schema's `oneOf`/`anyOf` reaches the contract's `schema` (so `verify --variants`
/// sends the other options than the fixture's) where it is near the top of the body and small;
/// a large one is left unchecked, as before.
struct ResponseUnionImportTests {
    static let document = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "paths": {"/payments/1": {"get": {"operationId": "get_payment", "responses": {"200": {"description": "ok",
           "content": {"application/json": {"schema": {"type": "object", "required": ["payment", "owner"], "properties": {
             "payment": {"oneOf": [{"$ref": "#/components/schemas/Card"}, {"$ref": "#/components/schemas/PayPal"}]},
             "owner": {"anyOf": [{"type": "string"}, {"$ref": "#/components/schemas/Big"}]}}}}}}}}}},
         "components": {"schemas": {
           "Card": {"type": "object", "required": ["kind", "last4"], "properties": {"kind": {"type": "string", "enum": ["card"]}, "last4": {"type": "string"}}},
           "PayPal": {"type": "object", "required": ["kind", "email"], "properties": {"kind": {"type": "string", "enum": ["paypal"]}, "email": {"type": "string"}}},
           "Big": {"type": "object", "properties": {BIG}}}}}
        """#

    @Test func aSmallOneOfIsKeptAndALargeAnyOfIsLeftUnchecked() throws {
        // 400 keys: past the nodes one union's options may take.
        let big = (0..<400).map { #""k\#($0)": {"type": "string"}"# }.joined(separator: ", ")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-union-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("openapi.json")
        try Data(Self.document.replacingOccurrences(of: "BIG", with: big).utf8).write(to: file)
        let imported = try OpenAPIImporter().importFile(file)
        try ContractWriter(output: folder.appendingPathComponent("out")).write(imported)
        let set = try ContractSet.load(contracts: folder.appendingPathComponent("out/contracts"), fixtures: folder.appendingPathComponent("out/fixtures"))
        let shape = try #require(set.contracts.first?.responses.first?.shape)
        let payment = try #require(shape.properties?.first { $0.key == "payment" }?.schema)
        #expect(payment.oneOf?.map { $0.properties?.map(\.key) ?? [] } == [["kind", "last4"], ["kind", "email"]])
        #expect(payment.oneOf?.first?.properties?.first?.schema.enumValues == ["card"])
        let owner = try #require(shape.properties?.first { $0.key == "owner" }?.schema)
        #expect(owner.isUnchecked)
        #expect(ShapeMismatch.find(in: set).isEmpty)
    }
}
