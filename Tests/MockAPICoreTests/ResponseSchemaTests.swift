import Foundation
import Testing

@testable import MockAPICore

/// A response's `schema`: read with the request's JSON-schema subset, problems located like the
/// rest, written back, and the fixture held to it (what `lint` warns about).
struct ResponseSchemaTests {
    static func contract(_ responseSchema: String, fixture: String = "ok.json") -> String {
        #"{"name": "ping", "request": {"method": "GET", "path": "/ping"}, "responses": {"default": {"status": 200, "fixture": "\#(fixture)", "schema": \#(responseSchema)}}}"#
    }

    static let shape = #"""
        {"properties": {"id": {"type": "int", "format": "int64"}, "state": {"enum": ["live", "failed"], "type": "string"},
         "at": {"type": "string", "format": "date-time"}, "avatar": {"type": "string", "nullable": true, "required": false},
         "tags": {"items": {"type": "string"}, "minItems": 1}}, "otherKeys": true}
        """#

    @Test func aResponseSchemaLoadsAndReachesTheResponse() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(Self.shape)], fixtures: ["ok.json": #"{"id": 1, "state": "live", "at": "2024-05-01T12:00:00Z", "tags": ["a"]}"#])
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        let shape = try #require(set.contracts[0].responses[0].shape)
        #expect(shape.type == .object)
        #expect(shape.otherKeys)
        #expect(shape.properties?.map(\.key) == ["id", "state", "at", "avatar", "tags"])
        #expect(shape.properties?[0].schema.format == "int64")
        #expect(shape.properties?[4].schema.minItems == 1)
        #expect(ShapeMismatch.find(in: set).isEmpty)
        let source = try #require(set.contracts[0].source)
        #expect(try ContractFile.decode(source.fileJSON) == source)
        let written = try #require(source.fileJSON.objectValue?["responses"]?.objectValue?["default"]?.objectValue?["schema"])
        #expect(written.objectValue?["properties"]?.objectValue?["tags"] == ["items": ["type": "string"], "minItems": 1])
    }

    @Test func aBadSchemaIsALoadProblemAtItsPath() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(#"{"type": "object", "required": true, "properties": {"n": {"type": "bool", "format": "date"}, "l": {"minItems": -1, "type": "array"}}}"#)],
            fixtures: ["ok.json": "{}"])
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("loaded")
        } catch {
            let problems = error.problems.map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
            #expect(problems.contains { $0.hasPrefix(#"contracts/ping.json: $.responses.default.schema: unknown key "required""#) }, "\(problems)")
            #expect(problems.contains(#"contracts/ping.json: $.responses.default.schema.properties.n.format: describes a string or a number, but "type" is "bool""#), "\(problems)")
            #expect(problems.contains(#"contracts/ping.json: $.responses.default.schema.properties.l.minItems: expected a count of 0 or more, found -1"#), "\(problems)")
        }
    }

    @Test func aFixtureTheSchemaDoesNotAllowIsFoundWithItsPath() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(Self.shape)],
            fixtures: ["ok.json": #"{"id": "1", "state": "done", "at": "2024-05-01 12:00", "avatar": null, "tags": [], "extra": 1}"#])
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        let found = ShapeMismatch.find(in: set).map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
        #expect(
            found == [
                "fixtures/ok.json: $.id: expected int, found string",
                #"fixtures/ok.json: $.state: "done" is not one of "live", "failed""#,
                #"fixtures/ok.json: $.at: "2024-05-01 12:00" is not an RFC 3339 date-time (2024-05-01T12:00:00Z)"#,
                "fixtures/ok.json: $.tags: expected at least 1 element, found 0",
            ])
    }

    static let payment = #"""
        {"oneOf": [{"properties": {"kind": {"enum": ["card"], "type": "string"}, "last4": {"type": "string"}}},
                   {"properties": {"kind": {"enum": ["paypal"], "type": "string"}, "email": {"type": "string", "format": "email"}}}]}
        """#

    @Test func oneOfAndAnyOfLoadAreWrittenBackAndHoldTheFixture() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(#"{"properties": {"payment": \#(Self.payment), "tag": {"anyOf": [{"type": "string"}, {"type": "int"}]}}}"#)],
            fixtures: ["ok.json": #"{"payment": {"kind": "card", "last4": "4242"}, "tag": 3}"#])
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        let shape = try #require(set.contracts[0].responses[0].shape)
        #expect(shape.properties?[0].schema.oneOf?.count == 2)
        #expect(shape.properties?[1].schema.anyOf?.map(\.type) == [.string, .int])
        #expect(ShapeMismatch.find(in: set).isEmpty)
        let source = try #require(set.contracts[0].source)
        #expect(try ContractFile.decode(source.fileJSON) == source)
        let written = source.fileJSON.objectValue?["responses"]?.objectValue?["default"]?.objectValue?["schema"]?.objectValue?["properties"]
        #expect(written?.objectValue?["tag"] == ["anyOf": [["type": "string"], ["type": "int"]]])
    }

    @Test func aFixtureThatFitsNoOptionIsFoundWithEachOptionsWord() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(Self.payment)], fixtures: ["ok.json": #"{"kind": "paypal", "email": 3}"#])
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        let found = ShapeMismatch.find(in: set).map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
        #expect(
            found == [
                #"fixtures/ok.json: $: fits none of the 2 options of its oneOf: option 1: $.kind: "paypal" is not one of "card"; option 2: $.email: expected string, found int"#
            ])
    }

    @Test func aBadOneOfIsALoadProblemAtItsPath() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(#"{"oneOf": [], "anyOf": [{"type": "string", "required": false}]}"#)], fixtures: ["ok.json": "{}"])
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("loaded")
        } catch {
            let problems = error.problems.map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
            #expect(problems.contains("contracts/ping.json: $.responses.default.schema.oneOf: expected a non-empty array of schemas, found []"), "\(problems)")
            #expect(problems.contains { $0.hasPrefix(#"contracts/ping.json: $.responses.default.schema.anyOf[0]: unknown key "required""#) }, "\(problems)")
        }
    }
}
