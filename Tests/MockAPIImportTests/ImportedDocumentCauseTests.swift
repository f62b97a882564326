import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What schemathesis found on public documents (issue 27, item 11), each cause as a small
/// hand-written document: imported, served on 127.0.0.1, and sent the requests the document
/// allows, which the served import must take.
struct ImportedDocumentCauseTests {
    struct Served {
        let imported: ImportedSet
        let set: ContractSet
        let scratch: ScratchFolder
    }

    /// `paths` (YAML, indented by two) and `schemas` under a 3.0 document, imported and loaded.
    static func load(paths: String, schemas: String? = nil) throws -> Served {
        let scratch = try ScratchFolder()
        let document = scratch.url.appendingPathComponent("api.yaml")
        let text = "openapi: 3.0.3\ninfo: {title: Causes, version: \"1\"}\npaths:\n\(paths)\ncomponents:\n  schemas:\(schemas.map { "\n" + $0 } ?? " {}")\n"
        try Data(text.utf8).write(to: document)
        let imported = try OpenAPIImporter().importFile(document)
        let set = try scratch.writeAndLoad(imported)
        return Served(imported: imported, set: set, scratch: scratch)
    }

    /// Status and body of one request to the served set.
    static func send(
        _ method: String, _ path: String, to server: RunningMockServer, body: Data? = nil, contentType: String = "application/json"
    ) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString.trimmingCharacters(in: ["/"]) + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    static func json(_ text: String) -> Data { Data(text.utf8) }

    /// A multipart body of (name, value) text parts.
    static func multipart(_ parts: [(String, String)], boundary: String = "cause-boundary") -> Data {
        var text = ""
        for (name, value) in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        return Data((text + "--\(boundary)--\r\n").utf8)
    }

    // MARK: 1. allOf through $ref

    @Test func anAllOfReachedThroughARefIsMergedInTheBodyAndTheMadeUpAnswer() async throws {
        let served = try Self.load(
            paths: """
                  /things:
                    post:
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: {$ref: '#/components/schemas/NewThing'}
                      responses:
                        "201":
                          description: made
                          content:
                            application/json:
                              schema: {$ref: '#/components/schemas/Thing'}
                """,
            schemas: """
                    Tagged:
                      type: object
                      properties:
                        tags: {type: array, items: {type: string}}
                        kind: {type: string, enum: [small, large]}
                        meta: {type: object, properties: {size: {type: integer}}}
                    NewThing:
                      allOf:
                        - {$ref: '#/components/schemas/Tagged'}
                        - {type: object, required: [name, kind], properties: {name: {type: string}}}
                    Thing:
                      allOf:
                        - {type: object, required: [id, tags, kind, meta]}
                        - {$ref: '#/components/schemas/Tagged'}
                        - {type: object, properties: {id: {type: integer}}}
                """)
        let contract = try #require(served.set.contract("post_things"))
        let body = try JSONParser.parse(contract.responses[0].body)
        // Each key as the part that declares it says, not a placeholder "string" from the part that only requires it.
        #expect(body == ["tags": ["string"], "kind": "small", "meta": ["size": 1], "id": 1], "\(body)")
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            let answer1 = try await Self.send("POST", "/things", to: server, body: Self.json(#"{"name": "a", "kind": "large", "tags": ["x"]}"#)).0
            #expect(answer1 == 201)
            let answer2 = try await Self.send("POST", "/things", to: server, body: Self.json(#"{"name": "a"}"#)).0
            #expect(answer2 == 422, "kind is required")
            let answer3 = try await Self.send("POST", "/things", to: server, body: Self.json(#"{"name": "a", "kind": "huge"}"#)).0
            #expect(answer3 == 422)
        }
    }

    // MARK: 2. multipart

    @Test func multipartTakesOtherPartsRepeatedArrayPartsAndAnEmptyName() async throws {
        let served = try Self.load(
            paths: """
                  /uploads:
                    post:
                      requestBody:
                        required: true
                        content:
                          multipart/form-data:
                            schema:
                              type: object
                              required: [title]
                              properties:
                                title: {type: string}
                                labels:
                                  anyOf: [{type: array, items: {type: string}}, {type: string}]
                      responses:
                        "201": {description: made}
                  /closed:
                    post:
                      requestBody:
                        required: true
                        content:
                          multipart/form-data:
                            schema:
                              type: object
                              additionalProperties: false
                              properties:
                                title: {type: string}
                      responses:
                        "201": {description: made}
                """)
        let type = "multipart/form-data; boundary=cause-boundary"
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            for parts in [
                [("title", "a")], [("title", "a"), ("other", "b")], [("title", "a"), ("labels", "x"), ("labels", "y")],
                [("title", "a"), ("", "nameless")],
            ] {
                let (status, text) = try await Self.send("POST", "/uploads", to: server, body: Self.multipart(parts), contentType: type)
                #expect(status == 201, "\(parts.map(\.0)): \(text)")
            }
            let answer4 = try await Self.send("POST", "/uploads", to: server, body: Self.multipart([("labels", "x")]), contentType: type).0
            #expect(answer4 == 422, "title is required")
            let (status, text) = try await Self.send("POST", "/closed", to: server, body: Self.multipart([("title", "a"), ("other", "b")]), contentType: type)
            #expect(status == 422, "additionalProperties: false: \(text)")
        }
    }

    // MARK: 3. `?query` and `#fragment` path keys

    @Test func aPathKeyWithAQueryOrFragmentBesideThePlainOneIsAnsweredNotRefused() async throws {
        let served = try Self.load(
            paths: """
                  /files/{id}:
                    put:
                      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: {type: object, additionalProperties: false, required: [name], properties: {name: {type: string}}}
                      responses:
                        "200": {description: renamed}
                  /files/{id}#add_shared_link:
                    put:
                      parameters:
                        - {name: id, in: path, required: true, schema: {type: string}}
                        - {name: fields, in: query, required: true, schema: {type: string}}
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: {type: object, additionalProperties: false, required: [shared_link], properties: {shared_link: {type: object}}}
                      responses:
                        "200": {description: shared}
                  /things:
                    get:
                      responses:
                        "200": {description: things}
                  /things?beta=true:
                    get:
                      parameters: [{name: limit, in: query, schema: {type: integer}}]
                      responses:
                        "200": {description: beta things}
                """)
        #expect(served.imported.skipped == 0, "\(served.imported.warnings)")
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            let answer5 = try await Self.send("PUT", "/files/7", to: server, body: Self.json(#"{"name": "a"}"#)).0
            #expect(answer5 == 200)
            let (status, text) = try await Self.send("PUT", "/files/7?fields=shared_link", to: server, body: Self.json(#"{"shared_link": {}}"#))
            #expect(status == 200, "\(text)")
            let answer6 = try await Self.send("GET", "/things", to: server).0
            #expect(answer6 == 200)
            let (beta, betaText) = try await Self.send("GET", "/things?beta=true&limit=3", to: server)
            #expect(beta == 200, "\(betaText)")
        }
    }

    // MARK: 4. untyped items and properties

    @Test func itemsAndPropertiesWithoutATypeTakeAnyValue() async throws {
        let served = try Self.load(
            paths: """
                  /lists:
                    post:
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema:
                              type: object
                              properties:
                                rows: {type: array, items: {properties: {a: {type: string}}}}
                                loose: {properties: {b: {type: integer}}}
                                described: {type: array, items: {description: anything}}
                                typed: {type: array, items: {type: object, properties: {a: {type: string}}}}
                      responses:
                        "201": {description: made}
                """)
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            for body in [#"{"rows": ["text", 3, {"a": "x"}]}"#, #"{"loose": "text"}"#, #"{"loose": {"b": 2}}"#, #"{"described": [1, "a", null]}"#] {
                let (status, text) = try await Self.send("POST", "/lists", to: server, body: Self.json(body))
                #expect(status == 201, "\(body): \(text)")
            }
            // Where the document does say a type, it is still checked.
            let answer7 = try await Self.send("POST", "/lists", to: server, body: Self.json(#"{"typed": ["text"]}"#)).0
            #expect(answer7 == 422)
            // (`rows`' elements are left unchecked: a contract's keys imply an object, so `{"a": 3}` is taken too.)
        }
    }

    // MARK: 5. big integers

    @Test func aBigIntegerExampleIsServedAsAnIntegerNotAFloat() async throws {
        let served = try Self.load(
            paths: """
                  /ids:
                    get:
                      responses:
                        "200":
                          description: ids
                          content:
                            application/json:
                              schema: {type: object, properties: {id: {type: integer}}}
                              example: {id: 12345678901234567890}
                """)
        let text = try served.scratch.text("fixtures/ids/get_ids.json")
        #expect(text.contains(#""id": 12345678901234567"#), "\(text)")
        #expect(!text.contains("e+"), "\(text)")
    }

    // MARK: 6. oneOf

    @Test func aOneOfBodyTakesABodyOfAnyBranchAndRefusesOneOfNone() async throws {
        let served = try Self.load(
            paths: """
                  /pets:
                    post:
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema:
                              oneOf:
                                - {type: object, additionalProperties: false, required: [kind, bark], properties: {kind: {type: string, enum: [dog]}, bark: {type: string}}}
                                - {type: object, additionalProperties: false, required: [kind, lives], properties: {kind: {type: string, enum: [cat]}, lives: {type: integer}}}
                      responses:
                        "201": {description: made}
                """)
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            let answer9 = try await Self.send("POST", "/pets", to: server, body: Self.json(#"{"kind": "dog", "bark": "loud"}"#)).0
            #expect(answer9 == 201)
            let answer10 = try await Self.send("POST", "/pets", to: server, body: Self.json(#"{"kind": "cat", "lives": 9}"#)).0
            #expect(answer10 == 201)
            // A key of the wrong type for every branch, a body that mixes branches or misses a
            // branch's required key: each is refused, naming what each option finds wrong.
            let refused = [
                #"{"kind": "dog", "lives": "nine"}"#: #"option 1: body.bark: required key is missing; option 2: body.kind: \"dog\" is not one of \"cat\""#,
                #"{"kind": "dog"}"#: #"option 1: body.bark: required key is missing; option 2: body.kind: \"dog\" is not one of \"cat\""#,
                #"{"kind": "dog", "lives": 9}"#: #"option 1: body.bark: required key is missing"#,
                #"{"kind": "cat", "bark": "loud"}"#: #"option 2: body.lives: required key is missing"#,
            ]
            for (body, reason) in refused {
                let (status, text) = try await Self.send("POST", "/pets", to: server, body: Self.json(body))
                #expect(status == 422, "\(body) keeps no branch: \(text)")
                #expect(text.contains("fits none of the 2 options of its oneOf: ") && text.contains(reason), "\(body): \(text)")
            }
        }
        let contract = try #require(served.set.contracts.first)
        #expect(contract.request.json?.isEmpty == true)
        #expect(contract.request.body.oneOf?.map { $0.properties?.map(\.key) ?? [] } == [["kind", "bark"], ["kind", "lives"]])
        #expect(contract.request.body.oneOf?.map(\.otherKeys) == [false, false])
        #expect(served.imported.warnings.isEmpty, "\(served.imported.warnings)")
    }

    // MARK: 7. 20-digit path integers

    /// A contract's `int` segment is an Int64. An integer the document lets go past it (`uint64`,
    /// a bound beyond) is a text segment; one without a format stays `int` (a decision: real
    /// servers take Int64 ids, and `/users/abc` stays a 404).
    @Test func anIntegerPathParameterThatMayPassInt64TakesTwentyDigits() async throws {
        let served = try Self.load(
            paths: """
                  /orders/{id}:
                    get:
                      parameters: [{name: id, in: path, required: true, schema: {type: integer, format: uint64}}]
                      responses:
                        "200": {description: an order}
                  /tickets/{id}:
                    get:
                      parameters: [{name: id, in: path, required: true, schema: {type: integer, maximum: 99999999999999999999}}]
                      responses:
                        "200": {description: an order}
                  /users/{id}:
                    get:
                      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                      responses:
                        "200": {description: a user}
                """)
        #expect(served.set.contract("get_users_id")?.request.path.text == "/users/{id:int}")
        #expect(served.set.contract("get_tickets_id")?.request.path.text == "/tickets/{id}")
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            let answer11 = try await Self.send("GET", "/orders/12345678901234567890", to: server).0
            #expect(answer11 == 200)
            let answer12 = try await Self.send("GET", "/tickets/12345678901234567890", to: server).0
            #expect(answer12 == 200)
            let answer13 = try await Self.send("GET", "/users/abc", to: server).0
            #expect(answer13 == 404)
            let answer14 = try await Self.send("GET", "/users/9223372036854775807", to: server).0
            #expect(answer14 == 200)
        }
    }

    // MARK: 8. bounds

    @Test func aBoundTheMadeUpExampleCannotKeepIsWarnedWithItsPointer() throws {
        let served = try Self.load(
            paths: """
                  /bounds:
                    get:
                      responses:
                        "200":
                          description: bounds
                          content:
                            application/json:
                              schema:
                                type: object
                                properties:
                                  huge: {type: integer, minimum: 100000000000000000000}
                                  long: {type: string, minLength: 200000}
                                  many: {type: array, minItems: 20, items: {type: integer}}
                """)
        let warnings = served.imported.warnings.filter { $0.contains("bound") }
        for pointer in ["/properties/huge", "/properties/long", "/properties/many"] {
            #expect(warnings.contains { $0.contains("#/paths/~1bounds/get/responses/200/content/application~1json/schema\(pointer)") }, "\(pointer): \(warnings)")
        }
    }

    // MARK: 9. named examples

    @Test func namedExamplesThatBreakTheirSchemaAreLeftOutWithAWarning() throws {
        let served = try Self.load(
            paths: """
                  /pets/{id}:
                    get:
                      parameters: [{name: id, in: path, required: true, schema: {type: integer, format: int64}}]
                      responses:
                        "200":
                          description: a pet
                          content:
                            application/json:
                              schema: {type: object, required: [id], properties: {id: {type: integer}}}
                              examples:
                                wrong: {value: {id: "seven"}}
                                right: {value: {id: 7}}
                        "404":
                          description: none
                          content:
                            application/json:
                              schema:
                                type: object
                                required: [code, at]
                                properties:
                                  code: {type: integer}
                                  at: {type: string, format: date-time, example: "2020-12-10T01:22:00.0000000"}
                              examples:
                                broken: {value: {code: "missing", at: "2020-12-10T01:22:00Z"}}
                """)
        let contract = try #require(served.set.contract("get_pets_id"))
        #expect(contract.responses.map(\.name) == ["default", "not_found"])
        #expect(try JSONParser.parse(contract.responses[0].body) == ["id": 7])
        // None keeps its schema: one made up from the schema instead (not from a schema example without its zone).
        #expect(try JSONParser.parse(contract.responses[1].body) == ["code": 1, "at": "2024-01-01T00:00:00Z"])
        #expect(served.imported.warnings.contains { $0.contains("example \"wrong\" does not fit its schema") && $0.contains("left out") }, "\(served.imported.warnings)")
        #expect(served.imported.warnings.contains { $0.contains("example \"broken\" does not fit its schema") }, "\(served.imported.warnings)")
    }
}
