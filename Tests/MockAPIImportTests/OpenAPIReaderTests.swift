import Foundation
import MockAPICore
import Testing

@testable import MockAPIImport

/// The tolerant reader: documents split across files, Swagger 2.0, and parts no importer before it could read.
struct OpenAPIReaderTests {
    static let multiFile = ImportFixtures.resources.appendingPathComponent("multifile/api.yaml")
    static let swagger2 = ImportFixtures.resources.appendingPathComponent("swagger2.yaml")

    @Test func aDocumentSplitAcrossFilesFollowsEachRefFromTheFileItIsWrittenIn() throws {
        let imported = try OpenAPIImporter().importFile(Self.multiFile)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(imported)
        #expect(set.contracts.map(\.name).sorted() == ["broken", "get_file", "list_archive", "list_files"])

        // The path item is ./paths/file.yaml; its schema ../schemas/file.json, whose owner is owner.yaml beside it.
        let file = try #require(set.contract("get_file"))
        // Its id may go past Int64 (`maximum: 18446744073709551615`): a text segment, as a contract's `int` is an Int64.
        #expect(file.request.path.text == "/files/{id}")
        #expect(
            try JSONParser.parse(file.responses[0].body) == [
                "id": 1, "name": "string", "size": .double(0.5), "kind": "text",
                "owner": ["email": "user@example.com", "created": "2024-01-01T00:00:00Z", "id": "00000000-0000-0000-0000-000000000001"],
            ])
        // ../common/responses/NotFound.yml, its schema ../../schemas/error.yaml; its `{{id}}` is text, not a placeholder.
        #expect(try JSONParser.parse(file.responses[1].body) == ["code": 404, "message": "no file {{id}}"])
        #expect(file.responses[1].template == nil)
        // A parameter from schemas/parameters.json#/Limit.
        // `/files?beta=true` beside `/files` is merged into it: `beta` is one more optional key.
        #expect(set.contract("list_files")?.request.query.map { "\($0.name):\($0.type.rawValue):\($0.required)" } == ["limit:int:false", "beta:string:false"])
        // A query in the path key is a required key with that value.
        let archive = try #require(set.contract("list_archive"))
        #expect(archive.request.path.text == "/archive")
        #expect(archive.request.match?.query.map { "\($0.name)=\($0.value)" } == ["format=zip"])

        #expect(imported.skipped == 0)
        #expect(
            imported.warnings == [
                "api.yaml: GET /files/{id}: paths/file.yaml#/get/responses/200/content/application~1json/schema: schemas/file.json#/properties/id: bound 1.8446744073709552e+19 is beyond Int64; clamped",
                "api.yaml: GET /files: #/paths/~1files/get/responses/200/content/application~1json/schema: schemas/file.json#/properties/id: bound 1.8446744073709552e+19 is beyond Int64; clamped",
                #"api.yaml: GET /files?beta=true: #/paths/~1files?beta=true/get: answers the same requests as contract "list_files": merged into it (list_files takes its keys too, and answers with its own responses)"#,
                #"api.yaml: #/paths/~1broken/get/responses/200/content/application~1json/schema: $ref "./schemas/missing.yaml#/Thing" cannot be followed (no file \#(Self.multiFile.deletingLastPathComponent().path)/schemas/missing.yaml); left out"#,
                "api.yaml: in all, 4 warnings (2 bound clamped, 1 same route, 1 unresolvable $ref)",
            ])
    }

    @Test func swagger2IsConvertedOnImport() throws {
        let imported = try OpenAPIImporter().importFile(Self.swagger2)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(imported)
        #expect(imported.skipped == 0)
        #expect(set.contracts.map(\.name).sorted() == ["add_book", "get_book", "get_cover", "list_books", "put_cover", "rate_book"])

        // basePath is the server's (a client's base URL carries it, as with a 3.x server URL); shared
        // parameters, collectionFormat and an enum of items.
        let list = try #require(set.contract("list_books"))
        #expect(list.request.path.text == "/books")
        #expect(
            list.request.query.map { "\($0.name):\($0.type.rawValue) \($0.arrayStyle?.rawValue ?? "-") \($0.enumValues ?? [])" } == [
                "tags:string repeated [\"new\", \"used\"]", "ids:int comma []",
            ])
        #expect(list.request.headers.map { "\($0.name) \($0.prefixes)" } == ["Authorization [\"Basic \"]"])
        // in: body → JSON keys; definitions → components; allOf merged in the made-up body.
        let add = try #require(set.contract("add_book"))
        #expect(add.request.json?.map { "\($0.key):\($0.type.rawValue):\($0.required)" } == ["title:string:true", "year:int:false"])
        #expect(try JSONParser.parse(add.responses[0].body) == ["id": 7, "title": "Dune", "year": 1965]) // examples by media type
        let get = try #require(set.contract("get_book"))
        #expect(get.request.path.text == "/books/{bookId:int}")
        #expect(try JSONParser.parse(get.responses[0].body) == ["title": "string", "year": 1450, "id": 1])
        #expect(try JSONParser.parse(get.responses[1].body) == ["code": 404, "message": "no such book"]) // #/responses/NotFound
        // type: file → a binary body of the produced type; formData with a file → multipart.
        let cover = try #require(set.contract("get_cover"))
        #expect(cover.responses[0].contentType == "image/png" && !cover.responses[0].body.isEmpty)
        #expect(set.contract("put_cover")?.request.multipart?.map { "\($0.name):\($0.filename):\($0.required)" } == ["image:false:true", "caption:false:false"]) // OpenAPI cannot require a filename
        // The document secures every operation (an API key) and defines no 401: a request without
        // the key gets a made-up 401, as the header's refusal.
        // formData without a file → a form, checked by its keys.
        let rate = try #require(set.contract("rate_book"))
        #expect(rate.request.body.contentTypes == ["application/x-www-form-urlencoded"])
        #expect(rate.request.json?.map { "\($0.key):\($0.type.rawValue):\($0.required)" } == ["stars:int:true"])
        #expect(imported.warnings.last == "swagger2.yaml: in all, 6 warnings (6 made-up 401)")
        let unauthorized = try #require(get.refusal?.byHeader.first)
        #expect(get.responses[unauthorized.response].status == 401)
    }

    /// Parts that used to fail a whole document: each is read, loosened or left out with a warning.
    @Test func quirksOfRealDocumentsAreReadOrLoosenedNotFatal() throws {
        let scratch = try ScratchFolder()
        let text = """
            openapi: 3.1.0
            info: {title: quirks, version: '1'}
            paths:
              /counters/{id}:
                get:
                  operationId: getCounter
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: integer, minimum: 0, maximum: 18446744073709551615}}
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [value, ratio]
                            properties:
                              value: {type: integer, exclusiveMinimum: true, minimum: 5, maximum: 18446744073709551615}
                              ratio: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}
                              state: {type: [string, "null"], enum: [on, off, null]}
                    '400': {$ref: '#/components/requestBodies/Oops'}
              /files/{id}#meta:
                get:
                  operationId: fileMeta
                  responses: {'204': {description: none}}
            security: [{basic: []}, {bearer: []}]
            components:
              securitySchemes:
                basic: {type: http, scheme: basic}
                bearer: {type: http, scheme: bearer}
              requestBodies:
                Oops:
                  description: a response written under requestBodies
                  content: {application/json: {example: {error: oops}}}
            """
        let url = scratch.url.appendingPathComponent("quirks.yaml")
        try Data(text.utf8).write(to: url)
        let imported = try OpenAPIImporter().importFile(url)
        let set = try scratch.writeAndLoad(imported)
        let counter = try #require(set.contract("get_counter"))
        #expect(try JSONParser.parse(counter.responses[0].body) == ["value": 6, "ratio": .double(0.5), "state": "on"])
        #expect(try JSONParser.parse(counter.responses[1].body) == ["error": "oops"])
        #expect(set.contract("file_meta")?.request.path.text == "/files/{id}")
        // Two alternatives that both send Authorization: it is required, with either prefix.
        #expect(counter.request.headers.map { "\($0.name) \($0.prefixes)" } == [#"Authorization ["Basic ", "Bearer "]"#])
        #expect(imported.skipped == 0)
        #expect(imported.warnings.contains { $0.contains("is beyond Int64; clamped") })
        #expect(imported.warnings.contains(##"quirks.yaml: GET /files/{id}#meta: #/paths/~1files~1{id}#meta: the path's fragment "#meta" is not sent in a request; left out"##))
    }

    /// What public documents say that a request or answer must keep: Adyen's three alternative
    /// credentials (a key header, Basic, a query key), Kubernetes' paths that end in a slash,
    /// and Harbor's `produces` on answers without a body.
    @Test(.needsCorpus) func credentialsTrailingSlashesAndBodilessTypesOfPublicDocumentsAreKept() throws {
        let corpus = try OpenAPICorpus.require()
        let adyen = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("07-adyen-balanceplatform-v2.json")))
        let holder = try #require(adyen.contracts.first { $0.request.method == .GET && $0.request.path.text == "/accountHolders/{id}" })
        #expect(holder.request.credentials?.anyOf.map(\.summary) == ["clientKey query key", #"Authorization header starting "Basic ""#, "X-API-Key header"])
        let refusal = try #require(holder.refusal?.byHeader.first { $0.location == CredentialExpectation.location })
        #expect(holder.responses[refusal.response].status == 401)
        #expect(holder.request.headers.isEmpty)

        let kubernetes = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("02-kubernetes-swagger.json")))
        let paths = Set(kubernetes.contracts.map(\.request.path.text))
        #expect(paths.contains("/apis/apps/") && paths.contains("/api/") && !paths.contains("/apis/apps"))

        let xero = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("08-xero-files.yaml")))
        let folder = try #require(xero.contracts.first { $0.request.method == .POST && $0.request.path.text == "/Folders" })
        #expect(folder.request.body.otherTypes && folder.request.json?.map(\.key).contains("Name") == true)

        let harbor = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("12-harbor-api-v2.yaml")))
        let delete = try #require(harbor.contracts.first { $0.request.method == .DELETE && $0.request.path.text == "/labels/{label_id:int}" })
        #expect(delete.responses[0].body.isEmpty)
        #expect(delete.responses[0].contentType == "application/json" && delete.responses[0].headers.isEmpty)
    }

    /// Moby says `EndpointConfig: {$ref: EndpointSettings, x-nullable: true}`: null is allowed
    /// there although `EndpointSettings` itself does not say so (schemathesis sends it).
    @Test(.needsCorpus) func aNullableBesideAReferenceIsKept() throws {
        let corpus = try OpenAPICorpus.require()
        let moby = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("03-moby-engine-swagger.yaml")))
        let connect = try #require(moby.contracts.first { $0.request.method == .POST && $0.request.path.text == "/networks/{id}/connect" })
        let endpoint = try #require(connect.request.json?.first { $0.key == "EndpointConfig" })
        #expect(endpoint.schema.nullable && endpoint.schema.type == .object)
        let container = try #require(connect.request.json?.first { $0.key == "Container" })
        #expect(!container.schema.nullable)
    }

    /// Moby's `/build` declares a `Content-type` header parameter of `application/x-tar` beside a
    /// body of `application/octet-stream`: a client sends the header's, so both are taken.
    @Test(.needsCorpus) func aContentTypeHeaderParameterAddsItsTypes() throws {
        let corpus = try OpenAPICorpus.require()
        let moby = try ScratchFolder().writeAndLoad(OpenAPIImporter().importFile(corpus.appendingPathComponent("03-moby-engine-swagger.yaml")))
        let build = try #require(moby.contracts.first { $0.request.method == .POST && $0.request.path.text == "/build" })
        #expect(build.request.body.contentTypes == ["application/octet-stream", "application/x-tar"])
    }

    /// Every corpus document imports into a set that loads; the counts are the figures the README reports.
    @Test(.needsCorpus) func everyCorpusDocumentImportsIntoALoadableSet() throws {
        let corpus = try OpenAPICorpus.require()
        let unpacked = try ScratchFolder()
        var documents = OpenAPICorpus.documents.map { corpus.appendingPathComponent($0) }
        documents.append(try OpenAPICorpus.unpackMultiFile(into: unpacked.url))
        var table: [String] = []
        for document in documents {
            let imported = try OpenAPIImporter().importFile(document)
            let scratch = try ScratchFolder()
            let set = try scratch.writeAndLoad(imported)
            #expect(set.contracts.count == imported.contracts.count, "\(document.lastPathComponent)")
            #expect(!set.contracts.isEmpty, "\(document.lastPathComponent)")
            table.append("\(document.lastPathComponent): \(imported.contracts.count) imported, \(imported.skipped) skipped; \(imported.warnings.last ?? "")")
        }
        print(table.joined(separator: "\n"))
    }
}
