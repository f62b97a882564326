import Foundation
import Testing

@testable import MockAPICore

/// `{{body…}}`, `{{uuid}}`, `{{now}}`, `{{now.unix}}` and `{{counter}}`: how a template reads them,
/// renders them, and which ones a contract refuses at load.
struct EchoTemplateTests {
    private func render(_ template: ResponseTemplate, json: String) -> String {
        String(decoding: template.render(baseURL: "http://127.0.0.1:9", body: .json(Array(json.utf8))), as: UTF8.self)
    }

    @Test func aPlaceholderThatIsAWholeJSONStringKeepsTheValuesType() throws {
        let body = #"{"id": "{{body.id}}", "user": "{{body.user}}", "hi": "hi {{body.user.name}}!", "{{body.id}}": "{{body.tags.1}}", "none": "{{body.nope}}", "empty": "<{{body.nope}}>"}"#
        let template = try #require(try ResponseTemplate.parse(Array(body.utf8), escaping: .json))
        #expect(template.needsBody && template.echoesRequest && template.rendersPerAnswer)
        let sent = #"{"id": 123456789012345678901234567890, "user": {"name": "Ada \"A\"", "age": 36}, "tags": ["x", true]}"#
        #expect(
            render(template, json: sent)
                == #"{"id": 123456789012345678901234567890, "user": {"name":"Ada \"A\"","age":36}, "hi": "hi Ada \"A\"!", "123456789012345678901234567890": true, "none": null, "empty": "<>"}"#,
            "a key stays a string; digits are kept as sent, not rounded through a Double")
    }

    @Test func numbersTheAnswerMakesAreNumbersInAWholeString() throws {
        let template = try #require(try ResponseTemplate.parse(Array(##"{"n": "{{counter}}", "t": "{{now.unix}}", "u": "{{uuid}}", "d": "{{now}}", "s": "#{{counter}}"}"##.utf8), escaping: .json))
        let rendered = String(decoding: template.render(baseURL: ""), as: UTF8.self)
        let object = try #require(try JSONParser.parse(rendered).objectValue)
        guard case .int(let counter) = object["n"], case .int(let seconds) = object["t"], case .string(let uuid) = object["u"], case .string(let date) = object["d"],
            case .string(let text) = object["s"]
        else {
            Issue.record("unexpected types in \(rendered)")
            return
        }
        #expect(counter >= 1 && text == "#\(counter)", "one counter value per answer")
        #expect(abs(seconds - Int(Date().timeIntervalSince1970)) < 5)
        #expect(UUID(uuidString: uuid) != nil && uuid == uuid.lowercased() && Array(uuid)[14] == "4")
        #expect(ISO8601DateFormatter().date(from: date).map { Int($0.timeIntervalSince1970) } == seconds, "now and now.unix are the same instant")
        let next = try #require(try JSONParser.parse(String(decoding: template.render(baseURL: ""), as: UTF8.self)).objectValue)
        guard case .int(let second) = next["n"] else { return }
        #expect(second > counter)
        #expect(next["u"] != object["u"])
    }

    @Test func namesQuotesAndInvalidBodies() throws {
        // An escaped quote before the placeholder: inside a longer string.
        let escaped = try #require(try ResponseTemplate.parse(Array(#"{"a": "\"{{body.id}}\""}"#.utf8), escaping: .json))
        #expect(escaped.wholeValues.isEmpty)
        #expect(render(escaped, json: #"{"id": 7}"#) == #"{"a": "\"7\""}"#)
        #expect(render(escaped, json: #"{"id": 7"#) == #"{"a": "\"\""}"#, "a body that is not JSON echoes nothing")
        let dashed = try #require(try ResponseTemplate.parse(Array("{{body.first-name}} {{a-b}}".utf8), escaping: .none))
        #expect(dashed.pieces == [.body(["first-name"]), .literal(Array(" {{a-b}}".utf8))], "only a body path takes a dash")
        #expect(throws: ResponseTemplate.UnknownPlaceholder(name: "body..x")) { try ResponseTemplate.parse(Array("{{body..x}}".utf8), escaping: .none) }
        #expect(throws: ResponseTemplate.UnknownPlaceholder(name: "now.iso")) { try ResponseTemplate.parse(Array("{{now.iso}}".utf8), escaping: .none) }
        let whole = try #require(try ResponseTemplate.parse(Array(#"{"echo": "{{body}}", "items": ["{{body.items.0}}", "{{body.items.01}}", "{{body.items.9}}"]}"#.utf8), escaping: .json))
        #expect(render(whole, json: "\n{ \"items\" : [ 1.5e3 , {\"k\": [ ]} ] }\n") == #"{"echo": {"items":[1.5e3,{"k":[]}]}, "items": [1.5e3, null, null]}"#)
        #expect(render(whole, json: "[1]") == #"{"echo": [1], "items": [null, null, null]}"#)
    }

    @Test func keysWithEscapesAndFormBodies() throws {
        let keyed = try #require(try ResponseTemplate.parse(Array("{{body.name}}|{{body.address.city}}|{{body.flag}}|{{body.gone}}".utf8), escaping: .none))
        #expect(String(decoding: keyed.render(baseURL: "", body: .json(Array(#"{"n\u0061me": "é\u00e9", "address": {"city": null}, "flag": false}"#.utf8))), as: UTF8.self) == "éé||false|")
        let form = Array("name=Ada+L%C3%B6wen&address%5Bcity%5D=Paris&flag".utf8)
        #expect(String(decoding: keyed.render(baseURL: "", body: .form(form)), as: UTF8.self) == "Ada Löwen|Paris||")
        let json = try #require(try ResponseTemplate.parse(Array(#"{"name": "{{body.name}}", "gone": "{{body.gone}}"}"#.utf8), escaping: .json))
        #expect(String(decoding: json.render(baseURL: "", body: .form(form)), as: UTF8.self) == #"{"name": "Ada Löwen", "gone": null}"#, "a form value is a JSON string")
    }

    @Test func markupEscapesBodyValuesAndRefusesThemWhereNoEscapingIsSafe() throws {
        let page = try #require(try ResponseTemplate.parse(Array(#"<p title="{{body.q}}">{{body.q}}</p><a href="/s?q={{body.q}}">{{uuid}}</a>"#.utf8), escaping: .markup))
        let checked = try page.checkedForMarkup().get()
        let rendered = String(decoding: checked.render(baseURL: "", body: .json(Array(#"{"q": "<script>\"&'"}"#.utf8))), as: UTF8.self)
        #expect(rendered.hasPrefix(#"<p title="&lt;script&gt;&quot;&amp;&#39;">&lt;script&gt;&quot;&amp;&#39;</p><a href="/s?q=%3Cscript%3E%22%26%27">"#))
        let script = try #require(try ResponseTemplate.parse(Array("<script>var a = '{{body.q}}', b = '{{uuid}}';</script>".utf8), escaping: .markup))
        guard case .failure(let refusals) = script.checkedForMarkup() else {
            Issue.record("a body value in a script must be refused")
            return
        }
        #expect(refusals.all.map(\.placeholder) == ["{{body.q}}"], "a value the server makes is not the request's")
    }

    @Test func aBodyKeyTheRequestSchemaCannotHoldIsALoadError() throws {
        let folder = try TestFolder(
            contracts: [
                "users.json": #"""
                {"name": "users", "request": {"method": "POST", "path": "/users",
                   "json": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
                            "address": {"type": "object", "properties": {"city": {"type": "string"}}},
                            "meta": {"type": "object", "properties": {"a": {"type": "int"}}, "otherKeys": true}}},
                 "responses": {"default": {"status": 201, "body": {"a": "{{body.nmae}}", "b": "{{body.name.first}}", "c": "{{body.tags.first}}",
                   "d": "{{body.address.zip}}", "e": "{{body.meta.anything}}", "f": "{{body.tags.0}}", "g": "{{body.address.city}}", "h": "{{body}}"}}}}
                """#,
                "open.json": #"""
                {"name": "open", "request": {"method": "POST", "path": "/open", "json": {"name": {}}, "body": {"otherKeys": true}},
                 "responses": {"default": {"status": 200, "body": {"x": "{{body.whatever.deep}}"}}}}
                """#,
                "unchecked.json": #"""
                {"name": "unchecked", "request": {"method": "POST", "path": "/unchecked"},
                 "responses": {"default": {"status": 200, "body": {"x": "{{body.whatever}}"}}}}
                """#,
                "script.json": #"""
                {"name": "script", "request": {"method": "POST", "path": "/script"},
                 "responses": {"default": {"status": 200, "fixture": "s.js"}, "made": {"status": 200, "fixture": "m.js"}}}
                """#,
            ], fixtures: ["s.js": "var name = '{{body.name}}';", "m.js": "var id = '{{uuid}}', at = '{{now}}', n = {{counter}};"])
        do {
            let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("must not load: \(set.contracts.count)")
        } catch {
            #expect(
                // The file as a person reads it: from the set's own folder on.
                error.problems.map { "contracts/" + $0.description.components(separatedBy: "/contracts/").dropFirst().joined(separator: "/contracts/") }.sorted()
                    == [
                        "contracts/script.json: $.responses.default.fixture: a request's value ({{path.NAME}}, {{query.NAME}}, {{body.KEY}}) cannot be escaped safely in a application/octet-stream body; "
                            + "use it in JSON, HTML, XML or plain text, or keep only {{baseURL}}, {{uuid}}, {{now}}, {{now.unix}} and {{counter}}",
                        #"contracts/users.json: $.responses.default.body: {{body.nmae}} names no key of the request's "json" (it has: name, tags, address, meta), and the contract refuses a body with other keys"#,
                        #"contracts/users.json: $.responses.default.body: {{body.name.first}} goes into name, which the request's "json" says is a string and holds no "first""#,
                        #"contracts/users.json: $.responses.default.body: {{body.tags.first}} goes into tags, which the request's "json" says is an array: name an element by its number ({{body.tags.0}})"#,
                        #"contracts/users.json: $.responses.default.body: {{body.address.zip}} names no key of address in the request's "json" (it has: city), which allows no other keys"#,
                    ].sorted())
        }
    }
}
