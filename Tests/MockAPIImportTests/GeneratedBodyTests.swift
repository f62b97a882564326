import Foundation
import MockAPICore
import Testing

@testable import MockAPIImport

/// Bodies made up from a schema are valid against that schema, as Python's jsonschema (a second
/// implementation) judges them: `scripts/check-generated-bodies`.
struct GeneratedBodyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Verdict {
        var bodies: Int
        var invalid: [String]
    }

    /// Every JSON response schema of the document, a body made up for each, checked by the oracle.
    /// `schemaExamples`: serve the document's own schema examples (some real documents' are not valid
    /// against their schema: `example: "1644009612"` for an integer, a date-time without a zone).
    static func check(_ url: URL, schemaExamples: Bool = true) throws -> Verdict {
        let document = try OpenAPIImporter.open(url)
        let reader = SchemaReader(document: document)
        var bodies: [JSONValue] = []
        for (_, written) in document.root["paths"]?.members ?? [] {
            guard let item = document.resolve(written), item.file == 0 else { continue }
            for method in OpenAPIImporter.methods {
                guard let operation = item[method].flatMap(document.resolve), operation.file == 0 else { continue }
                for (_, response) in operation["responses"]?.members ?? [] {
                    guard let resolved = document.resolve(response), resolved.file == 0 else { continue }
                    for (type, content) in resolved["content"]?.members ?? [] where OperationTranslator.isJSON(type) {
                        guard let schema = content["schema"], schema.isObject else { continue }
                        var generator = ExampleGenerator(reader: reader)
                        generator.usesSchemaExamples = schemaExamples
                        let body = generator.example(for: schema)
                        bodies.append(.object(JSONObject([("pointer", .string(schema.pointer)), ("body", body)])))
                    }
                }
            }
        }
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("bodies.json")
        try Data(JSONValue.object(JSONObject([("document", document.root.value), ("bodies", .array(bodies))])).serialized.utf8).write(to: input)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("scripts/check-generated-bodies").path, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 2, "the oracle did not run: \(text)")
        let lines = text.split(separator: "\n").map(String.init)
        return Verdict(bodies: bodies.count, invalid: lines.filter { $0.hasPrefix("invalid: ") })
    }

    static let schemas = """
        allOf: {allOf: [{$ref: '#/components/schemas/Named'}, {description: only words}, {type: object, required: [size], properties: {size: {type: integer}}}]}
        Named: {type: object, required: [name], properties: {name: {type: string, minLength: 8, maxLength: 12}}}
        bounds:
          type: object
          required: [small, negative, between, fraction, step, huge]
          properties:
            small: {type: integer, maximum: 0}
            negative: {type: integer, exclusiveMaximum: -3, minimum: -10}
            between: {type: number, minimum: 2.5, maximum: 2.75}
            fraction: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}
            step: {type: integer, minimum: 7, multipleOf: 5}
            huge: {type: integer, minimum: 9223372036854775807}
        formats:
          type: object
          required: [a, b, c, d, e, f, g, h, i]
          properties:
            a: {type: string, format: date-time}
            b: {type: string, format: date}
            c: {type: string, format: uuid}
            d: {type: string, format: email}
            e: {type: string, format: ipv4}
            f: {type: string, format: ipv6}
            g: {type: string, format: time}
            h: {type: string, format: byte}
            i: {type: string, minLength: 20}
        lists: {type: object, required: [three, tags], properties: {three: {type: array, minItems: 3, items: {type: integer}}, tags: {type: array, items: {type: string, enum: [red, blue]}}}}
        choice: {oneOf: [{type: object, required: [kind], properties: {kind: {type: string, enum: [a]}}, additionalProperties: false}, {type: string}]}
        maybe: {type: [object, "null"], properties: {x: {type: [integer, "null"], minimum: 3}}}
        """

    static func document(version: String) -> String {
        let names = ["allOf", "bounds", "formats", "lists", "choice", "maybe"]
        let paths = names.map { "  /\($0):\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/\($0)'}}}}" }
        var schemas = Self.schemas
        if version.hasPrefix("3.0") {
            // 3.0 spellings of the same bounds and nullability.
            schemas = schemas.replacingOccurrences(of: "exclusiveMaximum: -3, minimum: -10", with: "maximum: -3, exclusiveMaximum: true, minimum: -10")
                .replacingOccurrences(of: "exclusiveMinimum: 0, exclusiveMaximum: 1", with: "minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true")
                .replacingOccurrences(of: #"type: [object, "null"]"#, with: "type: object, nullable: true")
                .replacingOccurrences(of: #"type: [integer, "null"]"#, with: "type: integer, nullable: true")
        }
        let indented = schemas.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        return "openapi: \(version)\ninfo: {title: generated, version: '1'}\npaths:\n\(paths.joined(separator: "\n"))\ncomponents:\n  schemas:\n\(indented)\n"
    }

    @Test(arguments: ["3.0.3", "3.1.0"])
    func madeUpBodiesAreValidAgainstTheirSchema(version: String) throws {
        let scratch = try ScratchFolder()
        let url = scratch.url.appendingPathComponent("generated.yaml")
        try Data(Self.document(version: version).utf8).write(to: url)
        let verdict = try Self.check(url)
        #expect(verdict.bodies == 6)
        #expect(verdict.invalid.isEmpty, "\(verdict.invalid)")
    }
}

extension GeneratedBodyTests {
    /// Corpus documents of every version and style: every made-up response body checked by the oracle.
    /// (The largest three, 01, 02 and 05, take a minute more; they were checked the same way for the report.)
    @Test(
        .needsCorpus,
        arguments: [
            "03-moby-engine-swagger.yaml", "04-slack-web-api.json", "06-discord-api.json", "07-adyen-balanceplatform-v2.json",
            "08-xero-files.yaml", "09-swagger-petstore3.yaml", "11-swagger-petstore31.yaml", "12-harbor-api-v2.yaml",
        ])
    func madeUpBodiesForTheCorpusAreValidAgainstTheirSchema(document: String) throws {
        let verdict = try Self.check(try OpenAPICorpus.require().appendingPathComponent(document), schemaExamples: false)
        #expect(verdict.bodies > 0)
        #expect(verdict.invalid.isEmpty, "\(verdict.invalid.count) of \(verdict.bodies): \(verdict.invalid.prefix(5))")
    }

    /// A discriminated base (Adyen's `MandateAccountIdentification`, mapping `ukLocal`) is made up
    /// as its mapped schema with the mapping's name: schemathesis refused the base's bare `"string"`
    /// as an unknown discriminator value (ST111).
    @Test(.needsCorpus) func aDiscriminatedBaseIsMadeUpAsItsFirstMappedSchema() throws {
        let document = try OpenAPIImporter.open(try OpenAPICorpus.require().appendingPathComponent("07-adyen-balanceplatform-v2.json"))
        let schema = try #require(document.root["components"]?["schemas"]?["MandateBankAccount"])
        var generator = ExampleGenerator(reader: SchemaReader(document: document))
        let body = generator.example(for: schema)
        guard case .object(let account) = body, case .object(let identification)? = account["accountIdentification"] else {
            Issue.record("not an object with accountIdentification: \(body)")
            return
        }
        #expect(identification["type"] == .string("ukLocal"))
        // The mapped schema's own keys, with their lengths (8 and 6 characters).
        #expect(identification["accountNumber"]?.stringValue?.count == 8)
        #expect(identification["sortCode"]?.stringValue?.count == 6)
    }

    /// With the schemas' own examples served, as import does: Docker's property examples that
    /// break their own schema (an enum, a map of objects) are made up instead, so every body holds.
    @Test(.needsCorpus) func propertyExamplesThatBreakTheirSchemaAreNotServed() throws {
        let verdict = try Self.check(try OpenAPICorpus.require().appendingPathComponent("03-moby-engine-swagger.yaml"), schemaExamples: true)
        #expect(verdict.bodies > 0)
        #expect(verdict.invalid.isEmpty, "\(verdict.invalid.count) of \(verdict.bodies): \(verdict.invalid.prefix(5))")
    }
}
