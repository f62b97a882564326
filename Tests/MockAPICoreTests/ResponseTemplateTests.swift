import Testing
@testable import MockAPICore

struct ResponseTemplateTests {
    @Test func splitsPlaceholdersAndRendersThemEscapedForJSON() throws {
        let body = Array(#"{"next": "{{baseURL}}/v1/p?page={{query.page}}", "id": "{{path.id}}", "raw": "{{ not one }}"}"#.utf8)
        let template = try #require(try ResponseTemplate.parse(body, json: true))
        #expect(template.needsRequest)
        let rendered = template.render(baseURL: "http://127.0.0.1:9", pathParameters: ["id": "4\"2"], query: [("page", "2")])
        #expect(String(decoding: rendered, as: UTF8.self) == #"{"next": "http://127.0.0.1:9/v1/p?page=2", "id": "4\"2", "raw": "{{ not one }}"}"#)
        #expect(try ResponseTemplate.parse(Array(#"{"plain": true}"#.utf8), json: true) == nil)
        #expect(try ResponseTemplate.parse(Array("{{baseURL}}".utf8), json: false)?.needsRequest == false)
        #expect(throws: ResponseTemplate.UnknownPlaceholder(name: "baseUrl")) { try ResponseTemplate.parse(Array("{{baseUrl}}".utf8), json: false) }
    }

    @Test func pathParameterValuesIncludingAMultiSegmentOne() throws {
        #expect(try PathTemplate("/v1/projects/{projectId:int}/backers/{backerId}").parameterValues(in: "/v1/projects/42/backers/self")
            == ["projectId": "42", "backerId": "self"])
        #expect(try PathTemplate("/v1/categories/{slug:path}/projects").parameterValues(in: "/v1/categories/art/illustration/projects")
            == ["slug": "art/illustration"])
    }

    @Test func placeholdersTheRequestCannotFillAreLoadErrors() throws {
        let folder = try TestFolder(contracts: ["p.json": #"""
            {"name": "p", "request": {"method": "GET", "path": "/p/{id:int}", "query": {"page": {"required": false}}},
             "responses": {"default": {"status": 200, "body": {"a": "{{path.projectId}}", "b": "{{query.cursor}}", "c": "{{host}}"}}}}
            """#], fixtures: [:])
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("placeholders that cannot be filled must not load")
        } catch {
            #expect(error.problems.map(\.message) == ["unknown placeholder {{host}} (known: {{baseURL}}, {{path.NAME}}, {{query.NAME}})"])
        }
        let typo = try TestFolder(contracts: ["p.json": #"""
            {"name": "p", "request": {"method": "GET", "path": "/p/{id:int}", "query": {"page": {"required": false}}},
             "responses": {"default": {"status": 200, "body": {"a": "{{path.projectId}}", "b": "{{query.cursor}}"}}}}
            """#], fixtures: [:])
        do {
            _ = try ContractSet.load(contracts: typo.contracts, fixtures: typo.fixtures)
            Issue.record("placeholders that cannot be filled must not load")
        } catch {
            #expect(error.problems.map(\.description).map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") } == [
                "$.responses.default.body: {{path.projectId}} names no parameter of /p/{id:int} (it has: id)",
                "$.responses.default.body: {{query.cursor}} names no query key of this contract (it has: page)",
            ])
        }
    }
}
