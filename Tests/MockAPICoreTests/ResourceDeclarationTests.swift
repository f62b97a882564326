import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `resource` declarations that cannot work are load errors naming the file and JSON path; the
/// set is not served half-loaded.
@Suite struct ResourceDeclarationTests {
    private func problems(_ contracts: [String: String], fixtures: [String: String] = ["list.json": #"{"data": [{"id": 1, "title": "a"}]}"#, "item.json": #"{"id": 1, "title": "a"}"#]) throws
        -> [String]
    {
        let set = try TemporaryContractSet(contracts: contracts, fixtures: fixtures)
        do throws(ContractSetError) {
            _ = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: set.root.path + "/", with: "") }
        }
    }

    private func contract(_ name: String, _ method: String, _ path: String, resource: String = #"{"name": "notes"}"#, json: Bool = false, fixture: String = "item.json") -> String {
        #"{"name": "\#(name)", "request": {"method": "\#(method)", "path": "\#(path)"\#(json ? #", "json": {"title": {"type": "string"}}"# : "")}, "resource": \#(resource), "responses": {"default": {"status": 200, "fixture": "\#(fixture)"}}}"#
    }

    @Test func aWholeResourceLoads() throws {
        #expect(
            try problems([
                "a.json": contract("list", "GET", "/notes", fixture: "list.json"), "b.json": contract("create", "POST", "/notes", json: true),
                "c.json": contract("read", "GET", "/notes/{id:int}"), "d.json": contract("edit", "PATCH", "/notes/{noteId}", json: true),
            ]) == [])
    }

    @Test func eachMistakeIsNamedWhereItIsWritten() throws {
        #expect(
            try problems(["a.json": contract("create", "POST", "/notes")]) == [
                #"contracts/a.json: $.request: resource "notes": POST creates from the JSON body: declare request.json (with body.otherKeys to take any key)"#
            ])
        #expect(
            try problems(["a.json": contract("list", "GET", "/notes", fixture: "list.json"), "b.json": contract("x", "PUT", "/notes", json: true)]) == [
                #"contracts/b.json: $.request.method: resource "notes": on the collection /notes a resource takes POST (create) and GET (list), not PUT"#
            ])
        #expect(
            try problems(["a.json": contract("list", "GET", "/notes", fixture: "list.json"), "b.json": contract("x", "GET", "/other/{id}")]) == [
                #"contracts/b.json: $.request.path: resource "notes": /other/{id} is neither the collection /notes nor /notes/{id}"#
            ])
        #expect(
            try problems(["a.json": contract("list", "GET", "/notes", fixture: "list.json"), "b.json": contract("x", "GET", "/notes/{id}/more")]) == [
                #"contracts/b.json: $.request.path: resource "notes": /notes/{id}/more is neither the collection /notes nor /notes/{id}"#
            ])
        #expect(
            try problems([
                "a.json": contract("create", "POST", "/notes", resource: #"{"name": "notes", "id": "uuid"}"#, json: true),
                "b.json": contract("list", "GET", "/notes", resource: #"{"name": "notes", "id": "sequential"}"#, fixture: "list.json"),
            ]).contains(#"contracts/b.json: $.resource.id: resource "notes": sequential here, uuid in contract "create""#))
        #expect(
            try problems(["a.json": contract("create", "POST", "/notes", resource: #"{"name": "notes", "id": "uuid"}"#, json: true)]) == [
                #"contracts/a.json: $.resource.id: resource "notes": uuid ids are strings, and the fixture's items have int ids at "id""#
            ])
        #expect(
            try problems(["a.json": contract("list", "GET", "/notes", resource: #"{"name": "notes", "items": "/missing"}"#, fixture: "list.json")]) == [
                #"contracts/a.json: $.resource.items: resource "notes": "/missing" names no array in the list answer's fixture"#
            ])
        #expect(
            try problems(["a.json": contract("list", "GET", "/notes", fixture: "item.json")]) == [
                #"contracts/a.json: $.resource: resource "notes": say where the list answer keeps its items: "items": "/data" (a JSON pointer)"#
            ])
        #expect(
            try problems(["a.json": contract("r1", "GET", "/notes/{id}"), "b.json": contract("r2", "GET", "/notes/{x}"), "c.json": contract("l", "GET", "/notes", fixture: "list.json")]).contains(
                #"contracts/b.json: $.resource: resource "notes": contract "r1" is already its read operation"#))
    }

    @Test func hostileValuesInTheDeclarationAreRefused() throws {
        let cases: [(String, String)] = [
            (#""notes""#, "$.resource: expected an object, found string"),
            (#"{"id": "uuid"}"#, #"$.resource: missing key "name""#),
            (#"{"name": "no tes"}"#, #"$.resource.name: "no tes" is not a usable resource name: use letters, digits, '_', '.' and '-'"#),
            (#"{"name": "notes", "id": "random"}"#, #"$.resource.id: "random" is not an id style: use "sequential" or "uuid""#),
            (#"{"name": "notes", "idKey": ""}"#, "$.resource.idKey: the id key cannot be empty"),
            (#"{"name": "notes", "items": "data"}"#, #"$.resource.items: "data" is not a JSON pointer: write "" for the whole body or "/data" for a member"#),
            (#"{"name": "notes", "items": "/a~2"}"#, #"$.resource.items: "/a~2" is not a JSON pointer: write "" for the whole body or "/data" for a member"#),
            (#"{"name": "notes", "Name": "x"}"#, "$.resource: unknown key"),
        ]
        for (resource, expected) in cases {
            let found = try problems(["a.json": contract("list", "GET", "/notes", resource: resource, fixture: "list.json")])
            #expect(found.contains { $0.hasPrefix("contracts/a.json: " + expected) }, "\(resource): \(found)")
        }
    }

    @Test func jsonPointersFollowRFC6901() throws {
        let document = try JSONParser.parse(#"{"a/b": {"m~n": [10, 20]}, "": 1}"#)
        #expect(JSONPointer("/a~1b/m~0n/1")?.value(in: document) == .int(20))
        #expect(JSONPointer("/")?.value(in: document) == .int(1))
        #expect(JSONPointer("")?.value(in: document) == document)
        #expect(JSONPointer("/a~1b/m~0n/2")?.value(in: document) == nil)
        #expect(JSONPointer("/a~1b/m~0n/1")?.description == "/a~1b/m~0n/1")
        #expect(JSONPointer("a") == nil && JSONPointer("/~") == nil)
    }
}
