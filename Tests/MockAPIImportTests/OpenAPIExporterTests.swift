import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

struct OpenAPIExporterTests {
    static let bundled = Result { try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures) }

    /// The real validator (openapi-spec-validator, installed by scripts/setup), and a broken
    /// document it must refuse, so a validator that accepts anything cannot pass this test.
    @Test(.enabled(if: SpecValidator.pythonPath != nil, "python3 is not on PATH: openapi-spec-validator cannot run"))
    func theExportedBundledSetIsAValidOpenAPI31Document() throws {
        let scratch = try ScratchFolder()
        let document = OpenAPIExporter().document(for: try Self.bundled.get())
        let file = scratch.url.appendingPathComponent("openapi.json")
        try Data(document.prettySerialized.utf8).write(to: file)
        let valid = try SpecValidator.run(file)
        #expect(valid.status == 0, "\(valid.output)")
        #expect(valid.output.contains("OK"), "\(valid.output)")

        guard case .object(var broken) = document else { Issue.record("not an object"); return }
        broken["info"] = nil // info is required
        try Data(JSONValue.object(broken).prettySerialized.utf8).write(to: file)
        let invalid = try SpecValidator.run(file)
        #expect(invalid.status != 0, "\(invalid.output)")
    }

    /// What the standard parts alone say, as another tool reads them: `x-mockapi` taken out.
    @Test func theExportedDocumentImportsBackToTheSameRoutes() throws {
        let original = try Self.bundled.get()
        let scratch = try ScratchFolder()
        let file = scratch.url.appendingPathComponent("openapi.json")
        var document = try #require(OpenAPIExporter().document(for: original).objectValue)
        document[OpenAPIExporter.setExtension] = nil
        try Data(JSONValue.object(document).prettySerialized.utf8).write(to: file)
        let imported = try OpenAPIImporter().importFile(file)
        // The shared operation's body is an anyOf of both contracts' bodies: imported as the objects it may be.
        #expect(imported.skipped == 0, "\(imported.warnings)")
        let roundTrip = try scratch.writeAndLoad(imported)
        // Contracts that share a method and path (told apart by `match`) are one operation.
        let sharing = original.routes.discriminated.values.flatMap { $0.dropFirst() }.map { original.contracts[$0].name }
        #expect(sharing == ["facebook_signup"])
        let sharedRoute = original.routes.discriminated.values.flatMap { $0 }.map { original.contracts[$0].name }
        #expect(roundTrip.contracts.count == original.contracts.count - sharing.count - imported.skipped)
        for contract in original.contracts where !sharing.contains(contract.name) && (roundTrip.contract(contract.name) != nil || imported.skipped == 0) {
            let again = try #require(roundTrip.contract(contract.name), "\(contract.name)")
            let request = contract.request, back = again.request
            #expect(back.method == request.method && back.path.text == request.path.text, "\(contract.name)")
            #expect(back.query.map { "\($0.name) \($0.type) \($0.required) \($0.array)" } == request.query.map { "\($0.name) \($0.type) \($0.required) \($0.array)" }, "\(contract.name)")
            #expect(Set(back.headers.map { $0.name.lowercased() }) == Set(request.headers.map { $0.name.lowercased() }), "\(contract.name)")
            if sharedRoute.contains(contract.name) {
                // One operation for two contracts: its body is an anyOf of both, one of them this contract's keys.
                let options = back.body.anyOf?.map { Set(($0.properties ?? []).map { "\($0.key) \($0.type) \($0.required)" }) } ?? []
                let wanted = Set(request.json?.map { "\($0.key) \($0.type) \($0.required)" } ?? [])
                #expect(back.json?.isEmpty == true && options.contains(wanted), "\(contract.name): \(options)")
            } else {
                #expect(back.json?.map { "\($0.key) \($0.type) \($0.required)" } == request.json?.map { "\($0.key) \($0.type) \($0.required)" }, "\(contract.name)")
            }
            #expect(back.multipart?.map { "\($0.name) \($0.filename) \($0.contentTypes ?? [])" } == request.multipart?.map { "\($0.name) \($0.filename) \($0.contentTypes ?? [])" }, "\(contract.name)")
            #expect(Set(again.responses.map(\.status)) == Set(contract.responses.map(\.status)), "\(contract.name)")
            #expect(again.responses[again.defaultResponseIndex].body.isEmpty == contract.responses[contract.defaultResponseIndex].body.isEmpty, "\(contract.name)")
        }
        let backing = try #require(original.contract("backing")), backingAgain = try #require(roundTrip.contract("backing"))
        // Examples pass through AnyCodable: key order and 45.0 versus 45 are not kept, the values are.
        #expect(try canonical(JSONParser.parse(backingAgain.responses[0].body)) == canonical(JSONParser.parse(backing.responses[0].body)))
    }

    /// A plain OpenAPI reader (no `x-mockapi`) gets answers, not templates: every standard
    /// example is what the mock answers the contract's example request at the documented server,
    /// while `x-mockapi` keeps the fixture with its placeholders for `import openapi`.
    @Test func standardExamplesShowRenderedAnswersAndTheExtensionKeepsTheTemplates() throws {
        let set = try Self.bundled.get()
        let server = "https://mock.example.com:9443"
        let document = try #require(OpenAPIExporter(serverURL: server).document(for: set).objectValue)
        var examples: [String] = []
        for (_, item) in document["paths"]?.objectValue?.members ?? [] {
            for (_, operation) in item.objectValue?.members ?? [] {
                for (_, response) in operation.objectValue?["responses"]?.objectValue?.members ?? [] {
                    for (_, media) in response.objectValue?["content"]?.objectValue?.members ?? [] {
                        examples += (media.objectValue?["examples"]?.objectValue?.members ?? []).map { $0.value.serialized }
                    }
                }
            }
        }
        #expect(examples.count >= 30)
        #expect(examples.allSatisfy { !$0.contains("{{") }, "\(examples.filter { $0.contains("{{") })")
        let templated = set.contracts.flatMap(\.responses).filter { $0.template != nil }
        #expect(!templated.isEmpty)
        // A `{{baseURL}}` link, rendered at the documented server.
        #expect(examples.contains { $0.contains(server + "/") }, "\(examples)")
        let fixtures = document[OpenAPIExporter.setExtension]?.serialized ?? ""
        #expect(fixtures.contains("{{baseURL}}"))
    }

    /// An edit to the plain OpenAPI part of an exported document is reported on import (the
    /// `x-mockapi` contracts win, so it would otherwise vanish); key order and layout are not edits.
    @Test func anEditAfterExportIsReportedAndKeyOrderIsNot() throws {
        let exported = OpenAPIExporter().document(for: try Self.bundled.get())
        let untouched = try #require(ExportedSetReader.read(exported, file: "api.json"))
        #expect(untouched.warnings.allSatisfy { !$0.contains("edited after export") }, "\(untouched.warnings)")
        // The same document with every object's keys reversed, as another tool may write it.
        func reversed(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object): .object(JSONObject(object.members.reversed().map { ($0.key, reversed($0.value)) }))
            case .array(let items): .array(items.map(reversed))
            default: value
            }
        }
        let reordered = try #require(ExportedSetReader.read(reversed(exported), file: "api.json"))
        #expect(reordered.warnings.allSatisfy { !$0.contains("edited after export") }, "\(reordered.warnings)")

        var document = try #require(exported.objectValue)
        var paths = try #require(document["paths"]?.objectValue)
        var item = try #require(paths["/v1/discover"]?.objectValue)
        var operation = try #require(item["get"]?.objectValue)
        operation["summary"] = "Discover projects, now paged by cursor"
        item["get"] = .object(operation)
        paths["/v1/discover"] = .object(item)
        document["paths"] = .object(paths)
        let edited = try #require(ExportedSetReader.read(.object(document), file: "api.json"))
        let warnings = edited.warnings.filter { $0.contains("edited after export") }
        #expect(
            warnings == [
                "api.json: #/paths/~1v1~1discover/get: edited after export: its OpenAPI part no longer matches x-mockapi-contracts, which was imported as it was; "
                    + "make the edit in the contract file, or delete x-mockapi-contracts and x-mockapi to import the document as plain OpenAPI"
            ])
    }

    @Test func anArrayQueryKeyIsExportedUnderItsBracketedName() throws {
        let document = OpenAPIExporter().document(for: try Self.bundled.get())
        let discover = document.objectValue?["paths"]?.objectValue?["/v1/discover"]?.objectValue?["get"]?.objectValue
        let names = discover?["parameters"].flatMap { if case .array(let a) = $0 { a.compactMap { $0.objectValue?["name"]?.stringValue } } else { nil } }
        // The contract's own keys, then the set's defaults (contracts/_defaults.json).
        #expect(names == ["category_ids[]", "sort", "page", "client_id", "Accept-Language", "User-Agent"])
    }
}

/// Keys sorted, numbers as doubles.
private func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let number): .double(Double(number))
    case .array(let elements): .array(elements.map(canonical))
    case .object(let object): .object(JSONObject(object.members.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
    default: value
    }
}

/// `python3 -m openapi_spec_validator FILE`.
enum SpecValidator {
    static let pythonPath: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
        .map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ file: URL) throws -> (status: Int32, output: String) {
        let run = try ExternalTool.run(["-m", "openapi_spec_validator", file.path], executable: URL(fileURLWithPath: try #require(pythonPath)))
        if run.output.contains("No module named openapi_spec_validator") {
            Issue.record("openapi-spec-validator is not installed: run scripts/setup")
        }
        return (run.status, run.output)
    }
}
