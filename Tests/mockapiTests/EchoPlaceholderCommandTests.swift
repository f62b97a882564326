import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `lint` and `export openapi` on contracts whose answers echo the request's body.
@Suite struct EchoPlaceholderCommandTests {
    static let contract = #"""
        {"name": "create_user", "request": {"method": "POST", "path": "/v1/users",
           "json": {"name": {"type": "string"}, "address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": false}}},
         "responses": {"default": {"status": 201, "fixture": "created.json"}}}
        """#

    @Test func lintNamesTheFileAndPathOfABodyKeyTheRequestCannotHold() throws {
        let set = try TemporaryContractSet(
            contracts: ["create_user.json": Self.contract],
            fixtures: ["created.json": #"{"id": "{{uuid}}", "name": "{{body.nmae}}", "city": "{{body.address.zip}}", "n": "{{counter}}"}"#])
        let result = try CommandLineRunner.run(["lint", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                #"create_user.json: $.responses.default.fixture: {{body.nmae}} names no key of the request's "json" (it has: name, address), and the contract refuses a body with other keys"#),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(#"create_user.json: $.responses.default.fixture: {{body.address.zip}} names no key of address in the request's "json" (it has: city), which allows no other keys"#))
    }

    /// A plain OpenAPI reader sees the answer the mock gives the contract's example request
    /// (issue 27, item 10); `x-mockapi` keeps the fixture's text, placeholders and all.
    @Test func exportShowsTheRenderedAnswerAndKeepsThePlaceholdersInTheExtension() throws {
        let fixture = #"{"id": "{{uuid}}", "name": "{{body.name}}", "city": "in {{body.address.city}}", "n": "{{counter}}", "at": "{{now}}"}"#
        let set = try TemporaryContractSet(contracts: ["create_user.json": Self.contract], fixtures: ["created.json": fixture])
        let lint = try CommandLineRunner.run(["lint", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(lint.status == 0, "\(lint.stderr)")
        let result = try CommandLineRunner.run(["export", "openapi", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONParser.parse(result.stdout)
        let example = document.objectValue?["paths"]?.objectValue?["/v1/users"]?.objectValue?["post"]?.objectValue?["responses"]?.objectValue?["201"]?
            .objectValue?["content"]?.objectValue?["application/json"]?.objectValue?["examples"]?.objectValue?["default"]?.objectValue?["value"]
        let answer = try #require(example?.objectValue)
        // The example request's body is made from the contract's required keys: `name` only.
        #expect(answer["name"] == "example" && answer["city"] == "in ", "\(answer)")
        #expect(UUID(uuidString: answer["id"]?.stringValue ?? "") != nil, "\(answer)")
        #expect(answer["at"]?.stringValue?.hasPrefix("20") == true && answer["n"]?.typeName == "int", "\(answer)")
        let kept = document.objectValue?["x-mockapi"]?.objectValue?["fixtures"]?.objectValue?["created.json"]?.objectValue?["text"]?.stringValue
        #expect(kept == fixture)
    }
}
