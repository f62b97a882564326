import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// A `oneOf`/`anyOf` request body imported as the objects it may be (`request.body.oneOf`), served,
/// and exported back as the same union.
struct BodyOptionsImportTests {
    static func served(paths: String, schemas: String? = nil) throws -> ImportedDocumentCauseTests.Served {
        try ImportedDocumentCauseTests.load(paths: paths, schemas: schemas)
    }

    /// Options reached through `$ref`s, open (no `additionalProperties`), told apart by a
    /// discriminator's enum; `null` among them makes the body nullable.
    @Test func anAnyOfOfReferencedObjectsIsImportedOptionByOption() async throws {
        let served = try Self.served(
            paths: """
                  /payments:
                    post:
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema:
                              anyOf: [{$ref: '#/components/schemas/Card'}, {$ref: '#/components/schemas/Transfer'}, {type: 'null'}]
                      responses:
                        "201": {description: made}
                """,
            schemas: """
                    Card:
                      type: object
                      required: [method, number]
                      properties: {method: {type: string, enum: [card]}, number: {type: string}}
                    Transfer:
                      type: object
                      required: [method, iban]
                      properties: {method: {type: string, enum: [transfer]}, iban: {type: string}, reference: {type: string}}
                """)
        let contract = try #require(served.set.contracts.first)
        let options = try #require(contract.request.body.anyOf)
        #expect(options.map { $0.properties?.map(\.key) ?? [] } == [["method", "number"], ["method", "iban", "reference"]])
        #expect(options.map(\.otherKeys) == [true, true])
        #expect(contract.request.body.nullable)
        #expect(served.imported.warnings.isEmpty, "\(served.imported.warnings)")
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            for body in [#"{"method": "card", "number": "4242"}"#, #"{"method": "transfer", "iban": "DE00", "note": "open"}"#, "null"] {
                let (status, text) = try await ImportedDocumentCauseTests.send("POST", "/payments", to: server, body: ImportedDocumentCauseTests.json(body))
                #expect(status == 201, "\(body): \(text)")
            }
            let (status, text) = try await ImportedDocumentCauseTests.send(
                "POST", "/payments", to: server, body: ImportedDocumentCauseTests.json(#"{"method": "card", "iban": "DE00"}"#))
            #expect(status == 422, "\(text)")
            #expect(text.contains("fits none of the 2 options of its anyOf: option 1: body.number: required key is missing"), "\(text)")
        }
    }

    /// A `oneOf` in a property near the top of the body is the value's options, as in a response.
    @Test func aOneOfInAPropertyIsImportedAsTheValuesOptions() async throws {
        let served = try Self.served(
            paths: """
                  /orders:
                    post:
                      requestBody:
                        content:
                          application/json:
                            schema:
                              type: object
                              required: [shipping]
                              properties:
                                shipping:
                                  oneOf:
                                    - {type: object, required: [street], properties: {street: {type: string}}, additionalProperties: false}
                                    - {type: string, enum: [pickup]}
                      responses:
                        "201": {description: made}
                """)
        let key = try #require(served.set.contracts.first?.request.json?.first)
        #expect(key.key == "shipping" && key.schema.oneOf?.map(\.type) == [.object, .string])
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            for body in [#"{"shipping": {"street": "Main 1"}}"#, #"{"shipping": "pickup"}"#] {
                let status = try await ImportedDocumentCauseTests.send("POST", "/orders", to: server, body: ImportedDocumentCauseTests.json(body)).0
                #expect(status == 201, "\(body)")
            }
            let (status, text) = try await ImportedDocumentCauseTests.send(
                "POST", "/orders", to: server, body: ImportedDocumentCauseTests.json(#"{"shipping": "drone"}"#))
            #expect(
                status == 422 && text.contains(#""location": "body.shipping""#)
                    && text.contains(#"fits none of the 2 options of its oneOf: option 1: body.shipping: expected object, found string; option 2: body.shipping: \"drone\" is not one of \"pickup\""#),
                "\(text)")
        }
    }

    /// An option that may be other than an object: the body is read as before, as the keys of any object option.
    @Test func aOneOfWithANonObjectOptionIsNotReadOptionByOption() throws {
        let served = try Self.served(
            paths: """
                  /notes:
                    post:
                      requestBody:
                        content:
                          application/json:
                            schema:
                              oneOf: [{type: object, properties: {text: {type: string}}}, {type: array, items: {type: string}}]
                      responses:
                        "201": {description: made}
                """)
        let contract = try #require(served.set.contracts.first)
        #expect(contract.request.body.branches == nil)
    }

    /// The exported document's standard part alone (as another tool reads it) imports back to the same options.
    @Test func exportedOptionsImportBackAsTheSameOptions() throws {
        let original = try TemporaryContractSet(contracts: [
            "pets.json": #"""
            {"name": "pets", "request": {"method": "POST", "path": "/pets", "json": {"name": {"type": "string"}},
              "body": {"oneOf": [
                {"properties": {"kind": {"type": "string", "enum": ["dog"]}, "bark": {"type": "string", "required": false}}},
                {"properties": {"kind": {"type": "string", "enum": ["cat"]}, "lives": {"type": "int"}}, "otherKeys": true}]}},
             "responses": {"default": {"status": 201, "body": {}}}}
            """#
        ])
        let set = try ContractSet.load(contracts: original.contracts, fixtures: original.fixtures)
        var document = try #require(OpenAPIExporter().document(for: set).objectValue)
        document[OpenAPIExporter.setExtension] = nil
        let scratch = try ScratchFolder()
        let file = scratch.url.appendingPathComponent("openapi.json")
        try Data(JSONValue.object(document).prettySerialized.utf8).write(to: file)
        let imported = try OpenAPIImporter().importFile(file)
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let back = try #require(try scratch.writeAndLoad(imported).contracts.first).request
        let request = try #require(set.contracts.first).request
        func described(_ keys: [JSONKeyExpectation]?) -> [String] { (keys ?? []).map { "\($0.key) \($0.type) \($0.required) \($0.schema.enumValues ?? [])" } }
        #expect(described(back.json) == described(request.json))
        #expect(back.body.oneOf?.map { described($0.properties) } == request.body.oneOf?.map { described($0.properties) })
        #expect(back.body.oneOf?.map(\.otherKeys) == [false, true])
        #expect(back.body.anyOf == nil && !back.body.otherKeys)
    }

    /// JSON options beside an open multipart body (Discord's webhooks): the union reading stays,
    /// so a part the multipart schema does not name is still taken. With options, `body.otherKeys`
    /// was off and `attachments` got the document's 400 (found by scripts/schemathesis-corpus).
    @Test func optionsBesideAnOpenMultipartBodyKeepItsOtherPartsTaken() async throws {
        let served = try Self.served(
            paths: """
                  /hooks:
                    post:
                      requestBody:
                        content:
                          application/json:
                            schema:
                              anyOf:
                                - {type: object, properties: {content: {type: string}}}
                                - {type: object, properties: {embeds: {type: array, items: {type: object}}}}
                          multipart/form-data:
                            schema: {type: object, properties: {content: {type: string}}}
                      responses:
                        "200": {description: sent}
                """)
        let contract = try #require(served.set.contracts.first)
        #expect(contract.request.body.anyOf == nil)
        try await withMockServer(contracts: served.scratch.contracts, fixtures: served.scratch.fixtures) { server in
            let boundary = "b0undary"
            let body =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\nhi\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"attachments\"\r\n\r\nnull\r\n--\(boundary)--\r\n"
            let (status, text) = try await ImportedDocumentCauseTests.send(
                "POST", "/hooks", to: server, body: Data(body.utf8), contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(status == 200, "\(text)")
        }
    }
}
