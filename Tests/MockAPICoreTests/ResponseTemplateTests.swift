import Foundation
import Testing

@testable import MockAPICore

struct ResponseTemplateTests {
    @Test func splitsPlaceholdersAndRendersThemEscapedForJSON() throws {
        let body = Array(#"{"next": "{{baseURL}}/v1/p?page={{query.page}}", "id": "{{path.id}}", "raw": "{{ not one }}"}"#.utf8)
        let template = try #require(try ResponseTemplate.parse(body, escaping: .json))
        #expect(template.rendersPerAnswer)
        let rendered = template.render(baseURL: "http://127.0.0.1:9", pathParameters: ["id": "4\"2"], query: [QueryArgument("page", "2")])
        #expect(String(decoding: rendered, as: UTF8.self) == #"{"next": "http://127.0.0.1:9/v1/p?page=2", "id": "4\"2", "raw": "{{ not one }}"}"#)
        #expect(try ResponseTemplate.parse(Array(#"{"plain": true}"#.utf8), escaping: .json) == nil)
        #expect(try ResponseTemplate.parse(Array("{{baseURL}}".utf8), escaping: .none)?.rendersPerAnswer == false)
        #expect(throws: ResponseTemplate.UnknownPlaceholder(name: "baseUrl")) { try ResponseTemplate.parse(Array("{{baseUrl}}".utf8), escaping: .none) }
    }

    @Test func pathParameterValuesIncludingAMultiSegmentOne() throws {
        #expect(
            try PathTemplate("/v1/projects/{projectId:int}/backers/{backerId}").parameterValues(in: "/v1/projects/42/backers/self")
                == ["projectId": "42", "backerId": "self"])
        #expect(
            try PathTemplate("/v1/categories/{slug:path}/projects").parameterValues(in: "/v1/categories/art/illustration/projects")
                == ["slug": "art/illustration"])
    }

    @Test func placeholdersTheRequestCannotFillAreLoadErrors() throws {
        let folder = try TestFolder(
            contracts: [
                "p.json": #"""
                {"name": "p", "request": {"method": "GET", "path": "/p/{id:int}", "query": {"page": {"required": false}}},
                 "responses": {"default": {"status": 200, "body": {"a": "{{path.projectId}}", "b": "{{query.cursor}}", "c": "{{host}}"}}}}
                """#
            ], fixtures: [:])
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("placeholders that cannot be filled must not load")
        } catch {
            #expect(
                error.problems.map(\.message) == [
                    "unknown placeholder {{host}} (known: {{baseURL}}, {{path.NAME}}, {{query.NAME}}, {{body}}, {{body.KEY.KEY}}, {{uuid}}, {{now}}, {{now.unix}}, {{counter}})"
                ])
        }
        let typo = try TestFolder(
            contracts: [
                "p.json": #"""
                {"name": "p", "request": {"method": "GET", "path": "/p/{id:int}", "query": {"page": {"required": false}}},
                 "responses": {"default": {"status": 200, "body": {"a": "{{path.projectId}}", "b": "{{query.cursor}}"}}}}
                """#
            ], fixtures: [:])
        do {
            _ = try ContractSet.load(contracts: typo.contracts, fixtures: typo.fixtures)
            Issue.record("placeholders that cannot be filled must not load")
        } catch {
            #expect(
                error.problems.map(\.description).map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") } == [
                    "$.responses.default.body: {{path.projectId}} names no parameter of /p/{id:int} (it has: id)",
                    "$.responses.default.body: {{query.cursor}} names no query key of this contract (it has: page)",
                ])
        }
    }

    @Test func valuesAreEscapedForTheBodysMediaType() throws {
        #expect(ResponseTemplate.Escaping.forMediaType("application/json") == .json)
        #expect(ResponseTemplate.Escaping.forMediaType("application/problem+json") == .json)
        #expect(ResponseTemplate.Escaping.forMediaType("text/html; charset=utf-8") == .markup)
        #expect(ResponseTemplate.Escaping.forMediaType("image/svg+xml") == .markup)
        #expect(ResponseTemplate.Escaping.forMediaType("application/xml") == .markup)
        #expect(ResponseTemplate.Escaping.forMediaType("text/plain; charset=utf-8") == ResponseTemplate.Escaping.none)
        #expect(ResponseTemplate.Escaping.forMediaType("application/javascript") == nil)
        #expect(ResponseTemplate.Escaping.forMediaType("application/octet-stream") == nil)
        let page = try #require(try ResponseTemplate.parse(Array("<p title='{{query.q}}'>{{query.q}}</p>".utf8), escaping: .markup))
        let rendered = page.render(baseURL: "", query: [QueryArgument("q", #"<script>alert("x" & 'y')</script>"#)])
        #expect(
            String(decoding: rendered, as: UTF8.self)
                == "<p title='&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;'>&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;</p>")
    }

    @Test func requestValuesInAMediaTypeThatCannotBeEscapedAreLoadErrors() throws {
        let folder = try TestFolder(
            contracts: [
                "p.json": #"""
                {"name": "p", "request": {"method": "GET", "path": "/p", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "p.js"},
                               "typed": {"status": 200, "fixture": "p.txt", "headers": {"Content-Type": "text/html"}},
                               "linked": {"status": 200, "fixture": "link.js"}}}
                """#
            ], fixtures: ["p.js": "var q = '{{query.q}}';", "p.txt": "{{query.q}}", "link.js": "var base = '{{baseURL}}';"])
        do {
            let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("a request value in JavaScript must not load: \(set.contracts.count)")
        } catch {
            #expect(
                error.problems.map(\.description).map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") } == [
                    "$.responses.default.fixture: a request's value ({{path.NAME}}, {{query.NAME}}, {{body.KEY}}) cannot be escaped safely in a application/octet-stream body; "
                        + "use it in JSON, HTML, XML or plain text, or keep only {{baseURL}}, {{uuid}}, {{now}}, {{now.unix}} and {{counter}}"
                ])
        }
    }

    @Test func aHeaderContentTypeDecidesTheEscaping() throws {
        let folder = try TestFolder(
            contracts: [
                "p.json": #"""
                {"name": "p", "request": {"method": "GET", "path": "/p", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "p.txt", "headers": {"Content-Type": "text/html"}},
                               "text": {"status": 200, "body": {"q": "{{query.q}}"}, "headers": {"content-type": "text/plain"}}}}
                """#
            ], fixtures: ["p.txt": "{{query.q}}"])
        let responses = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures).contracts[0].responses
        #expect(responses.map { $0.template?.escaping } == [.markup, .json], "a JSON body sent as text stays valid JSON")
    }
}
