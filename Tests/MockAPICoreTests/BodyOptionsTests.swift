import Foundation
import MockAPITestSupport
import Testing

@testable import MockAPICore

/// `request.body.oneOf`/`anyOf`: the objects a JSON body may be. A body keeps the contract when it
/// has `json`'s keys and fits one of the options; a refusal says, option by option, what is wrong.
struct BodyOptionsTests {
    static let pets = #"""
        {"name": "pets", "request": {"method": "POST", "path": "/pets", "json": {},
          "body": {"oneOf": [
            {"properties": {"kind": {"type": "string", "enum": ["dog"]}, "bark": {"type": "string"}}},
            {"properties": {"kind": {"type": "string", "enum": ["cat"]}, "lives": {"type": "int"}}}]}},
         "responses": {"default": {"status": 201, "body": {}}}}
        """#

    static func load(_ contracts: [String: String]) throws -> ContractSet {
        let folder = try TemporaryContractSet(contracts: contracts)
        return try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
    }

    static func contract(_ text: String) throws -> Contract {
        try #require(try load(["c.json": text]).contracts.first)
    }

    static func violations(_ body: String, _ contract: Contract) throws -> [String] {
        let request = IncomingRequest(contentType: "application/json", body: .json(try JSONParser.parse(body)))
        return RequestValidator.violations(of: request, against: contract.request).map(\.description)
    }

    /// A contract's problems, the folder left out of each file name.
    static func problems(_ text: String) throws -> [String] {
        let folder = try TemporaryContractSet(contracts: ["pets.json": text])
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("loaded")
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
        }
    }

    @Test func aDiscriminatedOneOfTakesEachOptionAndRefusesMixesNamingEachOption() throws {
        let contract = try Self.contract(Self.pets)
        #expect(contract.request.body.oneOf?.count == 2)
        #expect(try Self.violations(#"{"kind": "dog", "bark": "loud"}"#, contract) == [])
        #expect(try Self.violations(#"{"kind": "cat", "lives": 9}"#, contract) == [])
        #expect(
            try Self.violations(#"{"kind": "dog"}"#, contract) == [
                #"body: fits none of the 2 options of its oneOf: option 1: body.bark: required key is missing; option 2: body.kind: "dog" is not one of "cat""#
            ])
        // Each option is closed: a key of the other is unexpected in it.
        #expect(
            try Self.violations(#"{"kind": "cat", "lives": 9, "bark": "loud"}"#, contract) == [
                #"body: fits none of the 2 options of its oneOf: option 1: body.kind: "cat" is not one of "dog"; option 2: body.bark: unexpected key (the contract names: kind, lives)"#
            ])
        #expect(try Self.violations(#"[1]"#, contract) == ["body: expected a JSON object, found array"])
    }

    /// `json`'s keys are every body's: checked first, and alone when they are wrong (each option would say the same).
    @Test func sharedKeysAreCheckedBeforeTheOptions() throws {
        let contract = try Self.contract(Self.pets.replacingOccurrences(of: #""json": {}"#, with: #""json": {"name": {"type": "string"}}"#))
        #expect(try Self.violations(#"{"name": "Rex", "kind": "dog", "bark": "loud"}"#, contract) == [])
        #expect(try Self.violations(#"{"kind": "dog", "bark": "loud"}"#, contract) == ["body.name: required key is missing"])
        #expect(
            try Self.violations(#"{"name": "Rex", "kind": "cow"}"#, contract).first?.hasPrefix("body: fits none of the 2 options of its oneOf: option 1: body.kind:")
                == true)
    }

    /// `anyOf`: a body that fits two open options keeps the contract (no option is told "only one").
    @Test func anAnyOfTakesABodyThatFitsSeveralOptions() throws {
        let contract = try Self.contract(
            #"""
            {"name": "search", "request": {"method": "POST", "path": "/search", "json": {},
              "body": {"anyOf": [{"properties": {"q": {"type": "string"}}, "otherKeys": true}, {"properties": {"tag": {"type": "string"}}, "otherKeys": true}]}},
             "responses": {"default": {"status": 200, "body": {}}}}
            """#)
        #expect(try Self.violations(#"{"q": "a", "tag": "b"}"#, contract) == [])
        #expect(try Self.violations(#"{"tag": "b"}"#, contract) == [])
        #expect(
            try Self.violations(#"{"q": 1}"#, contract) == [
                "body: fits none of the 2 options of its anyOf: option 1: body.q: expected string, found int; option 2: body.tag: required key is missing"
            ])
    }

    /// A `oneOf` in a property is the value's (as in a response's `schema`), its report at the value's path.
    @Test func aOneOfInAPropertyNamesEachOptionAtItsPath() throws {
        let contract = try Self.contract(
            #"""
            {"name": "pay", "request": {"method": "POST", "path": "/pay",
              "json": {"amount": {"type": "int"}, "method": {"oneOf": [
                {"properties": {"card": {"type": "string"}}}, {"properties": {"iban": {"type": "string"}}}, {"type": "string", "enum": ["cash"]}]}}},
             "responses": {"default": {"status": 200, "body": {}}}}
            """#)
        #expect(try Self.violations(#"{"amount": 5, "method": {"iban": "DE00"}}"#, contract) == [])
        #expect(try Self.violations(#"{"amount": 5, "method": "cash"}"#, contract) == [])
        #expect(
            try Self.violations(#"{"amount": 5, "method": {"card": 4}}"#, contract) == [
                "body.method: fits none of the 3 options of its oneOf: option 1: body.method.card: expected string, found int; "
                    + "option 2: body.method.iban: required key is missing; option 3: body.method: expected string, found object"
            ])
    }

    /// Past four options a report counts the rest (Stripe's unions run to dozens).
    @Test func aReportNamesFourOptionsAndCountsTheRest() throws {
        let options = (1...6).map { #"{"properties": {"k\#($0)": {"type": "int"}}}"# }.joined(separator: ", ")
        let contract = try Self.contract(
            #"{"name": "many", "request": {"method": "POST", "path": "/many", "json": {}, "body": {"oneOf": [\#(options)]}}, "responses": {"default": {"status": 200}}}"#)
        let found = try Self.violations(#"{}"#, contract)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("body: fits none of the 6 options of its oneOf: option 1: body.k1: required key is missing;") == true)
        #expect(found.first?.hasSuffix("option 4: body.k4: required key is missing; 2 more") == true, "\(found)")
    }

    @Test func theOptionsAreWrittenBackAsRead() throws {
        let source = try #require(try Self.contract(Self.pets).source)
        #expect(try ContractFile.decode(source.fileJSON) == source)
        let body = source.fileJSON.objectValue?["request"]?.objectValue?["body"]
        #expect(body?.objectValue?.keys.map { $0 } == ["oneOf"])
        #expect(body?.objectValue?["oneOf"]?.arrayValue?.first == ["properties": ["kind": ["type": "string", "enum": ["dog"]], "bark": ["type": "string"]]])
    }

    /// `match` may pick a contract by an option's key (the discriminator), which `json` does not name.
    @Test func aMatchMayNameAnOptionsKey() throws {
        let matched = Self.pets.replacingOccurrences(of: #""path": "/pets","#, with: #""path": "/pets", "match": {"json": {"kind": "dog"}},"#)
        #expect(try Self.contract(matched).request.match?.json.first?.key == "kind")
        let unnamed = Self.pets.replacingOccurrences(of: #""path": "/pets","#, with: #""path": "/pets", "match": {"json": {"size": 3}},"#)
        #expect(try Self.problems(unnamed) == [#"contracts/pets.json: $.request.match.json.size: neither the contract's "json" nor an option of its body names "size""#])
    }

    @Test func aBadOneOfIsALoadProblemWithItsFileAndPath() throws {
        func with(_ body: String, json: String? = "{}") -> String {
            #"{"name": "pets", "request": {"method": "POST", "path": "/pets", \#(json.map { #""json": \#($0), "# } ?? "")"body": \#(body)}, "responses": {"default": {"status": 201}}}"#
        }
        #expect(try Self.problems(with(#"{"oneOf": {}}"#)) == ["contracts/pets.json: $.request.body.oneOf: expected a non-empty array of schemas, found {}"])
        #expect(try Self.problems(with(#"{"oneOf": []}"#)) == ["contracts/pets.json: $.request.body.oneOf: expected a non-empty array of schemas, found []"])
        #expect(
            try Self.problems(with(#"{"oneOf": [{"properties": {}}]}"#, json: nil)) == [
                #"contracts/pets.json: $.request.body.oneOf: applies to a JSON body: add "json" (the keys every body has; {} for none)"#
            ])
        #expect(
            try Self.problems(with(#"{"oneOf": [{"properties": {}}, {"type": "string"}, {"enum": [1]}]}"#)) == [
                #"contracts/pets.json: $.request.body.oneOf[1]: a body option describes an object (give its "properties"), found type "string""#,
                #"contracts/pets.json: $.request.body.oneOf[2]: a body option describes an object (give its "properties"), found an enum"#,
            ])
        #expect(
            try Self.problems(with(#"{"otherKeys": true, "anyOf": [{"properties": {}}]}"#)) == [
                #"contracts/pets.json: $.request.body.otherKeys: the options of "anyOf" say which other keys a body may have; set "otherKeys" in an option"#
            ])
        #expect(try Self.problems(with(#"{"oneOf": [{"properties": {}}], "anyOf": [{"properties": {}}]}"#)) == [#"contracts/pets.json: $.request.body: give "oneOf" or "anyOf", not both"#])
        let unknown = try Self.problems(with(#"{"oneOf": [{"properties": {"a": {"type": "strin"}}, "required": true}]}"#))
        #expect(unknown.contains { $0.hasPrefix(#"contracts/pets.json: $.request.body.oneOf[0]: unknown key "required""#) }, "\(unknown)")
        #expect(unknown.contains { $0.hasPrefix(#"contracts/pets.json: $.request.body.oneOf[0].properties.a.type: "#) }, "\(unknown)")
    }

    /// A made-up request (`verify-backend` without an example) sends `json`'s keys and the first option's.
    @Test func aMadeUpBodyTakesTheFirstOption() throws {
        let contract = try Self.contract(Self.pets.replacingOccurrences(of: #""json": {}"#, with: #""json": {"name": {"type": "string"}}"#))
        let request = ConformingRequest(contract: contract)
        let body = try #require(request.body.map { String(decoding: $0, as: UTF8.self) })
        #expect(body == #"{"name":"example","kind":"dog","bark":"example"}"#)
        #expect(try Self.violations(body, contract) == [])
    }
}
