import Foundation
import MockAPICore
import Testing

@testable import MockAPIImport

/// Small documents that used to make `import openapi` run for ever, and documents over the bounds.
/// Each is generated here and must be answered within seconds.
struct HostileDocumentTests {
    /// "Billion laughs": nine levels of nine aliases of the level below, 9⁹ strings when expanded.
    static func aliasBomb(under key: String) -> String {
        var lines = ["  a0: &a0 [" + Array(repeating: "\"lol\"", count: 9).joined(separator: ",") + "]"]
        for level in 1..<9 {
            lines.append("  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",") + "]")
        }
        return "\(key):\n" + lines.joined(separator: "\n") + "\n"
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func write(_ text: String, named name: String, in scratch: ScratchFolder) throws -> URL {
        let url = scratch.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test(arguments: ["extension", "example"])
    func anAliasBombIsRefusedWithinSecondsNamingTheAnchorAndLine(placement: String) throws {
        let scratch = try ScratchFolder()
        let text =
            placement == "extension"
            ? "openapi: 3.1.0\ninfo: {title: bomb, version: '1'}\npaths: {}\n" + Self.aliasBomb(under: "x-bomb")
            : """
            openapi: 3.1.0
            info: {title: bomb, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          example:
            \(Self.aliasBomb(under: "                              laughs").dropLast())
            """
        #expect(text.utf8.count < 1_000)
        let url = try Self.write(text, named: "bomb.yaml", in: scratch)
        var message = ""
        let elapsed = Self.seconds {
            message = (#expect(throws: ImportError.self) { try OpenAPIImporter().importFile(url) })?.description ?? ""
        }
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(message.hasPrefix("\(url.path):"), "\(message)")
        #expect(message.contains("aliases of &a"), "\(message)")
        #expect(message.contains("expand the document past 1000000 aliased nodes"), "\(message)")
    }

    @Test func aDocumentThatUsesAnchorsModeratelyStillImports() throws {
        let scratch = try ScratchFolder()
        var text = "openapi: 3.1.0\ninfo: {title: anchors, version: '1'}\npaths:\n"
        text += "  /pets:\n    get:\n      operationId: listPets\n      responses: &shared\n"
        text += "        '200': {description: ok, content: {application/json: {example: {id: 1}}}}\n"
        for index in 0..<50 { text += "  /pets\(index):\n    get:\n      operationId: pets\(index)\n      responses: *shared\n" }
        let imported = try OpenAPIImporter().importFile(try Self.write(text, named: "anchors.yaml", in: scratch))
        #expect(imported.contracts.count == 51)
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
    }

    @Test func nestingDeeperThanTheBoundIsRefusedNamingTheLine() throws {
        let scratch = try ScratchFolder()
        let depth = 300
        let text =
            "openapi: 3.1.0\ninfo: {title: deep, version: '1'}\npaths: {}\nx-deep: "
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let url = try Self.write(text, named: "deep.yaml", in: scratch)
        let error = #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(url) }
        #expect(error?.description.hasPrefix("\(url.path):4:") == true, "\(String(describing: error))")
        #expect(error?.description.contains("nested more than 128 levels deep") == true, "\(String(describing: error))")
    }

    @Test func aYAMLSyntaxErrorNamesTheLineColumnAndProblem() throws {
        let scratch = try ScratchFolder()
        let url = try Self.write("openapi: 3.1.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a: b: c\n", named: "api.yaml", in: scratch)
        let error = #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(url) }
        #expect(error?.description.hasPrefix("\(url.path):6:8: mapping values are not allowed in this context") == true, "\(String(describing: error))")
    }

    @Test func aDocumentOverTheSizeBoundOrAFIFOIsRefusedBeforeItIsRead() throws {
        let scratch = try ScratchFolder()
        let url = scratch.url.appendingPathComponent("huge.yaml")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(DocumentFileReader.maxFileBytes) + 1) // sparse: no disk used
        try handle.close()
        let error = #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(url) }
        #expect(error?.description == "\(url.path): 100000001 bytes; files over 100000000 bytes (100 MB) are refused")

        let fifo = scratch.url.appendingPathComponent("fifo.yaml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let notFile = #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(fifo) }
        #expect(notFile?.description == "\(fifo.path): not a regular file")
        #expect(throws: ImportError.self) { try HARImporter().importFile(fifo) }
    }

    /// 11 schemas whose 12 properties each `$ref` the next: 12¹⁰ values if expanded in full.
    @Test func aFanOutOfReferencesGivesABoundedExampleAndAWarningNamingTheSchema() throws {
        let scratch = try ScratchFolder()
        var schemas: [String] = []
        for index in 0..<11 {
            let property = index == 10 ? #"{"type": "string"}"# : ##"{"$ref": "#/components/schemas/S\##(index + 1)"}"##
            let properties = (0..<12).map { #""p\#($0)": \#(property)"# }.joined(separator: ", ")
            schemas.append(#""S\#(index)": {"type": "object", "properties": {\#(properties)}}"#)
        }
        let text =
            ##"{"openapi": "3.1.0", "info": {"title": "fan", "version": "1"}, "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}}}}}, "components": {"schemas": {\##(schemas.joined(separator: ", "))}}}"##
        #expect(text.utf8.count < 8_000)
        let url = try Self.write(text, named: "fan.json", in: scratch)
        var imported = ImportedSet()
        let elapsed = try Self.seconds { imported = try OpenAPIImporter().importFile(url) }
        #expect(elapsed < 10, "took \(elapsed) s")
        let fixture = try #require(imported.fixtures.first)
        let body = try JSONParser.parse(fixture.bytes)
        #expect(Self.count(body) <= ExampleGenerator.maxValues + 1)
        #expect(imported.warnings.count == 2)
        #expect(
            imported.warnings.first?.hasPrefix(
                "fan.json: GET /a: #/paths/~1a/get/responses/200/content/application~1json/schema: response 200: the example made up from the schema stops: it reached 10000 values") == true,
            "\(imported.warnings)")
        #expect(imported.warnings.first?.contains("in #/components/schemas/S") == true)
    }

    /// The same fan-out as a request body (the 6 KB document of issue 30 that never finished importing):
    /// the contract's key checks stop at the walk's node budget, with a warning naming the schema.
    @Test func aRequestBodyThatFansOutImportsWithinSecondsWithAWarningNamingTheSchema() throws {
        let scratch = try ScratchFolder()
        var schemas: [String] = []
        for index in 0..<11 {
            let property = index == 10 ? #"{"type": "string"}"# : ##"{"$ref": "#/components/schemas/S\##(index + 1)"}"##
            let properties = (0..<12).map { #""p\#($0)": \#(property)"# }.joined(separator: ", ")
            schemas.append(#""S\#(index)": {"type": "object", "properties": {\#(properties)}}"#)
        }
        let body = ##"{"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}"##
        let text =
            ##"{"openapi": "3.1.0", "info": {"title": "fan", "version": "1"}, "paths": {"/a": {"post": {"operationId": "postA", "requestBody": \##(body), "responses": {"204": {"description": "ok"}}}}}, "components": {"schemas": {\##(schemas.joined(separator: ", "))}}}"##
        #expect(text.utf8.count < 8_000)
        let url = try Self.write(text, named: "fan-body.json", in: scratch)
        var imported = ImportedSet()
        let elapsed = try Self.seconds { imported = try OpenAPIImporter().importFile(url) }
        #expect(elapsed < 10, "took \(elapsed) s")
        #expect(imported.contracts.count == 1)
        let warning = try #require(imported.warnings.first { $0.contains("request body's schema fans out") }, "\(imported.warnings)")
        #expect(warning.contains("past \(SchemaWalkBudget.defaultNodes) nodes (reached in #/components/schemas/S"), "\(warning)")
        #expect(warning.hasPrefix("fan-body.json: POST /a: #/paths/~1a/post/requestBody/content/application~1json/schema"), "\(warning)")
    }

    /// Query parameters whose `oneOf` options fan out (12 options, each a `oneOf` of the next): typed within the budget.
    @Test func aQueryParameterWhoseOptionsFanOutImportsWithinSeconds() throws {
        let scratch = try ScratchFolder()
        var schemas: [String] = []
        for index in 0..<16 {
            let option = index == 15 ? #"{"type": "integer"}"# : ##"{"$ref": "#/components/schemas/Q\##(index + 1)"}"##
            schemas.append(#""Q\#(index)": {"oneOf": [\#(Array(repeating: option, count: 12).joined(separator: ", "))]}"#)
        }
        let parameter = ##"{"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/Q0"}}"##
        let text =
            ##"{"openapi": "3.1.0", "info": {"title": "fan", "version": "1"}, "paths": {"/a": {"get": {"operationId": "getA", "parameters": [\##(parameter)], "responses": {"204": {"description": "ok"}}}}}, "components": {"schemas": {\##(schemas.joined(separator: ", "))}}}"##
        let url = try Self.write(text, named: "fan-query.json", in: scratch)
        var imported = ImportedSet()
        let elapsed = try Self.seconds { imported = try OpenAPIImporter().importFile(url) }
        #expect(elapsed < 10, "took \(elapsed) s")
        #expect(imported.contracts.count == 1)
    }

    static func count(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.map(count).reduce(0, +)
        case .object(let object): 1 + object.members.map { count($0.value) }.reduce(0, +)
        default: 1
        }
    }

    /// `$ref` cycles through properties, `allOf` and `oneOf`, in a body, a query and a response.
    @Test func referenceCyclesEndWithinSeconds() throws {
        let scratch = try ScratchFolder()
        let text = """
            openapi: 3.1.0
            info: {title: cycles, version: '1'}
            paths:
              /a:
                post:
                  operationId: postA
                  parameters:
                    - {name: q, in: query, schema: {$ref: '#/components/schemas/Q1'}}
                  requestBody:
                    content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}
            components:
              schemas:
                A: {type: object, properties: {b: {$ref: '#/components/schemas/B'}, all: {$ref: '#/components/schemas/C'}}}
                B: {type: object, properties: {a: {$ref: '#/components/schemas/A'}}}
                C: {allOf: [{$ref: '#/components/schemas/D'}, {$ref: '#/components/schemas/D'}, {$ref: '#/components/schemas/D'}]}
                D: {allOf: [{$ref: '#/components/schemas/C'}, {$ref: '#/components/schemas/C'}, {type: object, properties: {d: {type: string}}}]}
                Q1: {oneOf: [{$ref: '#/components/schemas/Q2'}, {type: string}]}
                Q2: {oneOf: [{$ref: '#/components/schemas/Q1'}, {type: integer}]}
            """
        let url = try Self.write(text, named: "cycles.yaml", in: scratch)
        var imported = ImportedSet()
        let elapsed = try Self.seconds { imported = try OpenAPIImporter().importFile(url) }
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(imported.contracts.count == 1)
    }

    /// n² key lookups made 16,000 operations take 99 s and 126,000 never finish: 8× the operations must cost about 8× the time
    /// (under 16×; quadratic was about 64×).
    @Test func importTimeGrowsLinearlyWithTheNumberOfOperations() throws {
        let scratch = try ScratchFolder()
        func document(_ operations: Int) throws -> URL {
            let paths = (0..<operations).map { index in
                #""/r\#(index)/items/{id}": {"get": {"operationId": "getItem\#(index)", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}}}}"#
            }
            let text = #"{"openapi": "3.1.0", "info": {"title": "ops", "version": "1"}, "paths": {\#(paths.joined(separator: ", "))}}"#
            return try Self.write(text, named: "ops\(operations).json", in: scratch)
        }
        let small = try document(500), large = try document(4_000)
        var imported = ImportedSet()
        // The slowest of three small runs is the base: a busy moment during one run must not make a large ratio.
        let smallTime = try (0..<3).map { _ in try Self.seconds { imported = try OpenAPIImporter().importFile(small) } }.max()!
        #expect(imported.contracts.count == 500)
        let largeTime = try Self.seconds { imported = try OpenAPIImporter().importFile(large) }
        #expect(imported.contracts.count == 4_000)
        #expect(largeTime < smallTime * 16, "500 operations: \(smallTime) s, 4,000: \(largeTime) s")
    }

    /// Names become file names: a 5,600-character operationId and tag are cut to `Naming.maxLength`.
    @Test func anOperationIdOfThousandsOfCharactersStillMakesALoadableSet() throws {
        let scratch = try ScratchFolder()
        let id = String(repeating: "veryLong", count: 700)
        let text =
            #"{"openapi": "3.1.0", "info": {"title": "long", "version": "1"}, "paths": {"/a": {"get": {"operationId": "\#(id)", "tags": ["\#(id)"], "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"a": 1}}}}}}}}}"#
        let imported = try OpenAPIImporter().importFile(try Self.write(text, named: "long.json", in: scratch))
        let set = try scratch.writeAndLoad(imported)
        #expect(set.contracts.count == 1)
        #expect(set.contracts.first.map { $0.name.count == Naming.maxLength } == true)
    }

    /// A status that is not HTTP and a URL of 5,000 segments used to fail the whole import; now those entries are skipped.
    @Test func harEntriesThatCannotBeContractsAreSkippedAndTheRestImported() throws {
        let scratch = try ScratchFolder()
        func entry(_ url: String, status: Int) -> String {
            #"{"request": {"method": "GET", "url": "\#(url)"}, "response": {"status": \#(status), "content": {"mimeType": "application/json", "text": "{\"ok\": true}"}}}"#
        }
        let longPath = (0..<5_000).map { "s\($0 % 10)" }.joined(separator: "/")
        let entries = [
            entry("https://api.example/v1/items", status: 200), entry("https://api.example/v1/odd", status: 99999),
            entry("https://api.example/\(longPath)", status: 200), entry("https://api.example/v1/users/7", status: 200),
        ]
        let url = try Self.write(#"{"log": {"entries": [\#(entries.joined(separator: ", "))]}}"#, named: "capture.har", in: scratch)
        let imported = try HARImporter().importFile(url)
        #expect(imported.skipped == 2)
        #expect(imported.warnings.count == 2)
        #expect(imported.warnings.first == "capture.har: $.log.entries[1]: status 99999 is not an HTTP status (100-599); skipped")
        #expect(imported.warnings.last?.hasPrefix("capture.har: $.log.entries[2]: path \"/s0/s1/s2") == true, "\(imported.warnings)")
        #expect(imported.warnings.last?.hasSuffix("(5000 segments) would name a contract or folder longer than 120 characters; skipped") == true, "\(imported.warnings)")
        let set = try scratch.writeAndLoad(imported)
        #expect(Set(set.contracts.map(\.name)) == ["get_v1_items", "get_v1_users_id"])
    }

    /// libyaml refused `\ud83d\udc4d` (Twilio's document did not import); an escaped backslash before `ud83d` is text.
    @Test func surrogatePairEscapesInJSONBecomeTheirCharacter() throws {
        let scratch = try ScratchFolder()
        let text =
            #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"body": "Hello! \ud83d\udc4d", "path": "C:\\ud83d"}}}}}}}}}"#
        let imported = try OpenAPIImporter().importFile(try Self.write(text, named: "emoji.json", in: scratch))
        let body = try JSONParser.parse(try #require(imported.fixtures.first).bytes)
        #expect(body.objectValue?["body"] == .string("Hello! 👍"))
        #expect(body.objectValue?["path"] == .string(#"C:\ud83d"#))
    }
}
