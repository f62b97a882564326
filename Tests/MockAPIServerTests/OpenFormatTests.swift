import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// What real APIs need from a contract, on the wire: an open object, an optional or `null` body,
/// JSON or an upload on one route, lists sent in three query styles, and a body that shows
/// `{{…}}` as text. Uploads are sent by curl, so the multipart body is not ours.
struct OpenFormatTests {
    static let contract = #"""
        {"name": "create_file",
         "request": {"method": "POST", "path": "/v1/files",
           "query": {"ids": {"type": "int", "array": "comma", "required": false},
                     "tag": {"array": "repeated", "enum": ["a", "b"], "required": false},
                     "old": {"array": true, "required": false}},
           "json": {"title": {"type": "string"},
                    "meta": {"required": false, "properties": {"k": {"type": "int"}}, "otherKeys": true}},
           "multipart": [{"name": "file"}],
           "body": {"required": false, "nullable": true, "otherKeys": true}},
         "responses": {"default": {"status": 201, "body": {"template": "{{item.name}}"}, "placeholders": false}}}
        """#

    private func post(_ server: RunningMockServer, query: String = "", json: String?) throws -> RawHTTP.Response {
        try RawHTTP.request(
            server.port, "POST", "/v1/files" + query, headers: json == nil ? [:] : ["Content-Type": "application/json"],
            body: json.map { Data($0.utf8) } ?? Data())
    }

    @Test func anOpenObjectAnOptionalAndANullBodyAreAccepted() async throws {
        let set = try TemporaryContractSet(contracts: ["files.json": Self.contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            #expect(try post(server, json: #"{"title": "x", "extra": 1, "meta": {"k": 1, "more": true}}"#).status == 201)
            #expect(try post(server, json: nil).status == 201)
            #expect(try post(server, json: "null").status == 201)
            let nested = try post(server, json: #"{"title": "x", "meta": {"k": "one"}}"#)
            #expect(nested.status == 422)
            #expect(nested.text.contains("body.meta.k"))
            let missing = try post(server, json: #"{"extra": 1}"#)
            #expect(missing.status == 422)
            #expect(missing.text.contains("body.title"))
            // A body shown as text keeps its braces.
            #expect(try post(server, json: #"{"title": "x"}"#).text == #"{"template":"{{item.name}}"}"#)
        }
    }

    /// A schema that names properties but no `type` (Xero's folder, InfluxData's share) takes any
    /// other JSON type unchecked; an object is still checked.
    @Test func otherTypesTakesABodyThatIsNoObject() async throws {
        let contract =
            #"{"name": "share", "request": {"method": "POST", "path": "/v1/files", "json": {"title": {"type": "string"}}, "body": {"otherTypes": true}}, "responses": {"default": {"status": 201}}}"#
        let set = try TemporaryContractSet(contracts: ["share.json": contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let statuses = try [#""My Docs""#, "null", "[1, 2]", "7"].map { try post(server, json: $0).status }
            #expect(statuses == [201, 201, 201, 201])
            #expect(try post(server, json: #"{"title": 5}"#).status == 422)
            #expect(try post(server, json: "[1,").status == 422) // still JSON
        }
    }

    /// A `Content-Type` among a response's headers is its type, sent once in place of the
    /// fixture's (Docker's raw stream in a `.bin` fixture), as curl sees it.
    @Test func aContentTypeHeaderReplacesTheFixturesType() async throws {
        let contract =
            #"{"name": "logs", "request": {"method": "GET", "path": "/logs"}, "responses": {"default": {"status": 200, "fixture": "logs.bin", "headers": {"Content-Type": "application/vnd.docker.raw-stream"}}}}"#
        let set = try TemporaryContractSet(contracts: ["logs.json": contract], fixtures: ["logs.bin": "stream"])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let head = try ExternalTool.run(["curl", "-sS", "-D", "-", "-o", "/dev/null", "http://127.0.0.1:\(server.port)/logs"]).stdout
            let types = head.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("content-type:") }
            #expect(types == ["Content-Type: application/vnd.docker.raw-stream"])
        }
    }

    /// A multipart body whose parts a document does not let us read (Discord's invite, an `allOf`
    /// of an `anyOf`) is listed as a type and taken unread; a type not listed is still refused.
    @Test func aListedMultipartTypeWithoutPartsIsTakenUnread() async throws {
        let contract = #"{"name": "invite", "request": {"method": "POST", "path": "/v1/files", "body": {"contentTypes": ["multipart/form-data"]}}, "responses": {"default": {"status": 201}}}"#
        let set = try TemporaryContractSet(contracts: ["invite.json": contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = "http://127.0.0.1:\(server.port)/v1/files"
            let upload = try curl(["-F", "max_age=5", "-F", "target_users_file=@/etc/hostname", url])
            let json = try curl(["-H", "Content-Type: application/json", "-d", "{}", url])
            #expect(upload == "201" && json == "422")
        }
        let both =
            #"{"name": "x", "request": {"method": "POST", "path": "/x", "multipart": [{"name": "f"}], "body": {"contentTypes": ["multipart/form-data"]}}, "responses": {"default": {"status": 201}}}"#
        let parsed = try JSONParser.parse(both)
        do {
            _ = try ContractFile.decode(parsed)
            Issue.record("multipart/form-data listed beside multipart loaded")
        } catch {
            #expect(error.problems.map(\.description).contains { $0.contains("multipart/form-data comes with \"multipart\"") })
        }
    }

    @Test func listsAreCheckedInTheStyleTheContractNames() async throws {
        let set = try TemporaryContractSet(contracts: ["files.json": Self.contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            #expect(try post(server, query: "?ids=1,2,3&tag=a&tag=b&old[]=x&old[]=y", json: nil).status == 201)
            // An empty comma list is how OpenAPI's form style writes an empty array (Adyen's `results=`).
            #expect(try post(server, query: "?ids=", json: nil).status == 201)
            #expect(try post(server, query: "?ids=1,,2", json: nil).status == 422)
            let badElement = try post(server, query: "?ids=1,x", json: nil)
            #expect(badElement.status == 422)
            #expect(badElement.text.replacingOccurrences(of: "\n", with: "").contains(#""location": "query.ids",      "message": "expected int, found \"x\"""#))
            let twice = try post(server, query: "?ids=1&ids=2", json: nil)
            #expect(twice.status == 422)
            #expect(twice.text.contains("ids=a,b"))
            let notAllowed = try post(server, query: "?tag=a&tag=c", json: nil)
            #expect(notAllowed.status == 422)
            #expect(notAllowed.text.contains(#"\"c\" is not one of a, b"#))
        }
    }

    @Test func theSameRouteTakesAnUploadByItsContentType() async throws {
        let set = try TemporaryContractSet(contracts: ["files.json": Self.contract])
        let file = set.root.appendingPathComponent("photo.png")
        try Data("png bytes".utf8).write(to: file)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = server.baseURL.absoluteString + "/v1/files"
            let uploaded = try curl(["-F", "file=@\(file.path);type=image/png", url])
            let withoutFile = try curl(["-F", "caption=hello", url])
            #expect(uploaded == "201")
            #expect(withoutFile == "422")
            let entries = server.journal()
            #expect(entries.first?.parts.first?.name == "file")
            #expect(entries.last?.problem?.contains("part.file: required part is missing") == true)
        }
    }

    @Test func rulesForABodyTheContractDoesNotCheckAreLoadErrors() throws {
        let set = try TemporaryContractSet(contracts: [
            "a.json": #"""
            {"name": "a", "request": {"method": "POST", "path": "/a", "multipart": [{"name": "f"}], "body": {"nullable": true},
              "query": {"ids": {"array": "bracket"}}},
             "responses": {"default": {"status": 200}}}
            """#
        ])
        #expect(throws: ContractSetError.self) { try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures) }
        do { _ = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures) } catch {
            let messages = error.problems.map(\.description)
            #expect(messages.contains { $0.hasSuffix(#"$.request.body.nullable: applies to a JSON body: add "json""#) })
            #expect(messages.contains { $0.contains(#"$.request.query.ids.array: unknown array style "bracket" (did you mean "brackets"?"#) })
        }
    }

    private func curl(_ arguments: [String]) throws -> String {
        try ExternalTool.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}"] + arguments).stdout
    }
}

/// A contract's own refusal: the API's 400 or 401 with its error body instead of mockapi's 422,
/// still journaled as refused (with the violations in `Mockapi-Problem`).
struct RefusalTests {
    static let contract = #"""
        {"name": "create_pet",
         "request": {"method": "POST", "path": "/pets",
           "headers": {"Authorization": {"prefix": "Bearer ", "refusal": "unauthorized"}},
           "json": {"name": {"type": "string"}}},
         "responses": {"default": {"status": 201, "body": {"id": 1}},
                       "invalid": {"status": 400, "fixture": "bad.json"},
                       "unauthorized": {"status": 401, "body": {"message": "no token"}, "headers": {"WWW-Authenticate": "Bearer"}}},
         "refusal": "invalid"}
        """#

    @Test func aBrokenRequestGetsTheContractsOwnRefusalAndIsJournaledAsRefused() async throws {
        let set = try TemporaryContractSet(contracts: ["pets.json": Self.contract], fixtures: ["bad.json": #"{"error": "bad request"}"#])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let json = ["Content-Type": "application/json"]
            let noToken = try RawHTTP.request(server.port, "POST", "/pets", headers: json, body: Data(#"{"name": "Rex"}"#.utf8))
            #expect(noToken.status == 401)
            #expect(noToken.text == #"{"message":"no token"}"#)
            #expect(noToken.headers["www-authenticate"] == "Bearer")
            let badBody = try RawHTTP.request(
                server.port, "POST", "/pets", headers: json.merging(["Authorization": "Bearer t"]) { $1 },
                body: Data(#"{"name": 7}"#.utf8))
            #expect(badBody.status == 400)
            #expect(badBody.text == #"{"error": "bad request"}"#)
            #expect(badBody.headers["mockapi-problem"] == "body.name: expected string, found int")
            let good = try RawHTTP.request(
                server.port, "POST", "/pets", headers: json.merging(["Authorization": "Bearer t"]) { $1 },
                body: Data(#"{"name": "Rex"}"#.utf8))
            #expect(good.status == 201)
            #expect(server.journal().map(\.problem) == ["header.Authorization: required header is missing", "body.name: expected string, found int", nil])
            #expect(server.requests(violations: true).count == 2)
        }
    }

    @Test func aRefusalNamingNoResponseIsALoadError() throws {
        let set = try TemporaryContractSet(
            contracts: ["pets.json": Self.contract.replacingOccurrences(of: #""refusal": "invalid""#, with: #""refusal": "invalidd""#)],
            fixtures: ["bad.json": "{}"])
        do {
            _ = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.description).contains { $0.hasSuffix(#"$.refusal: no response named "invalidd" (have: default, invalid, unauthorized)"#) })
        }
    }

    @Test func aRefusalsPlaceholdersAreFilledForTheRequest() async throws {
        let contract = #"""
            {"name": "get_pet", "request": {"method": "GET", "path": "/pets/{id:int}", "headers": {"Authorization": {"refusal": "unauthorized"}}},
             "responses": {"default": {"status": 200, "body": {"id": 1}},
                           "unauthorized": {"status": 401, "body": {"login": "{{baseURL}}/login?next=/pets/{{path.id}}"}}}}
            """#
        let set = try TemporaryContractSet(contracts: ["pet.json": contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let answer = try RawHTTP.request(server.port, "GET", "/pets/42")
            #expect(answer.status == 401)
            #expect(answer.text == #"{"login":"http://127.0.0.1:\#(server.port)/login?next=/pets/42"}"#)
            #expect(server.journal().last?.problem == "header.Authorization: required header is missing")
        }
    }
}
