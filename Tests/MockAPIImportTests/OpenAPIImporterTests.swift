import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

struct OpenAPIImporterTests {
    @Test func petstoreYAMLBecomesALoadableSetWithOneContractPerOperation() throws {
        let imported = try OpenAPIImporter().importFile(ImportFixtures.petstore)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(imported)
        #expect(
            set.contracts.map(\.name).sorted() == [
                "create_pet", "delete_pet", "get_inventory", "list_categories", "list_pets",
                "pet_photo_in_format", "show_pet_by_id", "update_pet", "upload_pet_photo",
            ])
        #expect(imported.skipped == 0)
        #expect(
            imported.warnings == [
                #"petstore.yaml: GET /pets: #/paths/~1pets/get/responses/default: response "default" (any other status) is kept as a 500 ("server_error")"#,
                #"petstore.yaml: DELETE /pets/{petId}: #/paths/~1pets~1{petId}/delete: the operation needs X-API-Key but defines no 401: a request without it gets a made-up 401 (response "unauthorized")"#,
                #"petstore.yaml: GET /pets/{petId}/photo.{format}: #/paths/~1pets~1{petId}~1photo.{format}: path segment "photo.{format}" mixes text and a parameter; the contract takes any segment there"#,
                "petstore.yaml: in all, 3 warnings (1 default response, 1 made-up 401, 1 mixed path segment)",
            ])
        // `default` (any other status) is reachable by name, after the contract's own answers.
        #expect(set.contract("list_pets")?.responses.last.map { "\($0.name) \($0.status)" } == "server_error 500")
        // A mixed segment is one parameter; a PNG without an example still gets a PNG body.
        let photo = try #require(set.contract("pet_photo_in_format"))
        #expect(photo.request.path.text == "/pets/{petId:int}/{format}")
        #expect(photo.responses[0].contentType == "image/png")
        #expect(!photo.responses[0].body.isEmpty)

        let show = try #require(set.contract("show_pet_by_id"))
        #expect(show.file == "pets/show_pet_by_id.json")
        #expect(show.request.path.text == "/pets/{petId:int}")
        #expect(show.responses.map(\.name) == ["default", "cat", "not_found"])
        #expect(show.responses.map(\.status) == [200, 200, 404])
        let cat = try JSONParser.parse(show.responses[1].body)
        #expect(cat == ["id": 2, "name": "Tom", "tag": "cat", "status": "sold"]) // a $ref'd example, keys in document order
        #expect(try JSONParser.parse(show.responses[2].body) == ["code": 404, "message": "pet not found"])

        let list = try #require(set.contract("list_pets"))
        #expect(list.request.query.map { "\($0.name):\($0.type.rawValue):\($0.required)" } == ["limit:int:false", "status:string:false"])
        #expect(list.responses[0].headers.map { "\($0.name): \($0.value)" } == ["x-next: /pets?page=2"])

        // NewPet through $ref; allOf for the generated 201 body, the readOnly id included there.
        let create = try #require(set.contract("create_pet"))
        #expect(create.request.json?.map { "\($0.key):\($0.type.rawValue):\($0.required)" } == ["name:string:true", "tag:string:false", "status:string:false", "birthDate:string:false"])
        #expect(create.request.json?.last?.schema.nullable == true) // `nullable: true`: a date string or null
        expectPinned(
            try scratch.text("fixtures/pets/create_pet.json"),
            """
            {
              "id": 1,
              "name": "Rex",
              "tag": "string",
              "status": "available",
              "birthDate": "2024-01-01"
            }

            """)

        let upload = try #require(set.contract("upload_pet_photo"))
        #expect(
            upload.request.multipart?.map { "\($0.name) file:\($0.filename) required:\($0.required) \($0.contentTypes ?? [])" } == [
                // A document cannot require a filename, so none is (schemathesis sends binary parts without).
                "file file:false required:true [\"image/png\", \"image/jpeg\"]", "caption file:false required:false []",
            ])
        #expect(set.contract("delete_pet")?.request.headers.map(\.name) == ["X-API-Key"])
        // A recursive schema ends at its second visit.
        #expect(try scratch.text("fixtures/categories/list_categories.json") == "[\n  {\n    \"id\": 1,\n    \"name\": \"string\",\n    \"children\": []\n  }\n]\n")
    }

    @Test func mobileAPIJSON31KeepsUploadsPaginationAndSecurity() throws {
        let imported = try OpenAPIImporter().importFile(ImportFixtures.mobileAPI)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(imported)
        #expect(set.contracts.count == 10)
        #expect(imported.skipped == 0)
        #expect(
            imported.warnings.contains(
                #"mobile-api.json: POST /v1/posts/{postId}/attachments: #/paths/~1v1~1posts~1{postId}~1attachments/post/requestBody/content/multipart~1form-data/schema/properties/files: multipart part "files" is an array (the same part sent several times); taken unchecked"#
            ))
        #expect(imported.warnings.contains(#"mobile-api.json: GET /v1/search: #/paths/~1v1~1search/get/parameters/2: cookie parameter "session" is not checked (contracts do not read cookies)"#))

        let feed = try #require(set.contract("get_feed"))
        #expect(feed.request.query.map { "\($0.name):\($0.type.rawValue):\($0.required)" } == ["cursor:string:false", "limit:int:false"])
        #expect(feed.request.headers.map { "\($0.name) \($0.prefixes.first ?? "-")" } == ["X-App-Version -", "Authorization Bearer "])
        #expect(feed.responses.map(\.name) == ["default", "last_page", "unauthorized"])
        #expect(feed.responses[0].headers.map(\.name) == ["Link", "X-Total-Count"])
        #expect(try JSONParser.parse(feed.responses[1].body) == ["posts": [], "next_cursor": nil])

        let avatar = try #require(set.contract("upload_avatar"))
        #expect(avatar.request.multipart?.map { "\($0.name):\($0.filename):\($0.contentTypes ?? [])" } == ["avatar:false:[\"image/jpeg\"]", "crop:false:[]"])
        // readOnly id is not a key a client sends; a 3.1 nullable type is its type with `nullable`.
        #expect(set.contract("create_post")?.request.json?.map(\.key) == ["text", "media_ids", "visibility"])
        #expect(set.contract("update_current_user")?.request.json?.map { "\($0.key):\($0.type.rawValue)" } == ["display_name:string", "bio:string", "notifications:bool"])
        #expect(set.contract("get_post")?.request.path.text == "/v1/posts/{postId}")
        #expect(set.contract("search")?.request.query.map { "\($0.name) array:\($0.array)" } == ["q array:false", "types array:true"])
        #expect(try scratch.text("fixtures/posts/get_post.json").hasPrefix("{\n  \"id\": \"00000000-0000-0000-0000-000000000001\",\n  \"text\": \"string\",\n  \"author\": {"))
    }

    @Test func aDocumentThatIsNotOpenAPINamesTheFileAndThePath() throws {
        let scratch = try ScratchFolder()
        let broken = scratch.url.appendingPathComponent("broken.yaml")
        try Data("openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /pets:\n    get:\n      responses: 7\n".utf8).write(to: broken)
        let error = #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(broken) }
        let message = try #require(error?.description)
        #expect(message == "\(broken.path): no operation could be imported; GET /pets: #/paths/~1pets/get: no response with a status; operation skipped", "\(message)")

        let notOpenAPI = scratch.url.appendingPathComponent("other.json")
        try Data(#"{"swagger": "1.2", "paths": {}}"#.utf8).write(to: notOpenAPI)
        #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(notOpenAPI) }
        #expect(throws: ImportError.self) { try OpenAPIImporter().importFile(scratch.url.appendingPathComponent("missing.yaml")) }
    }
}
