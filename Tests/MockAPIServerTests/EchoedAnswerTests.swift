import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Answers that echo the request's body and make values of their own, over real sockets; what
/// they send is read back by other parsers than ours (Python's `json` and `html.parser`,
/// Foundation's `JSONDecoder`, `UUID` and `ISO8601DateFormatter`).
@Suite struct EchoedAnswerTests {
    /// A contract that names no body rules: the server keeps its body all the same, for the echo.
    static let contracts = [
        "echo.json": #"""
        {"name": "echo", "request": {"method": "POST", "path": "/echo"},
         "responses": {"default": {"status": 201, "fixture": "echo.json"}}}
        """#,
        "page.json": #"""
        {"name": "page", "request": {"method": "POST", "path": "/page", "json": {"name": {"type": "string"}},
           "body": {"contentTypes": ["application/json", "application/x-www-form-urlencoded"]}},
         "responses": {"default": {"status": 200, "fixture": "page.html"}}}
        """#,
        "literal.json": #"""
        {"name": "literal", "request": {"method": "POST", "path": "/literal"},
         "responses": {"default": {"status": 200, "body": {"id": "{{body.id}}", "at": "{{now}}"}, "placeholders": false}}}
        """#,
    ]

    static let fixtures = [
        "echo.json": #"""
        {"id": "{{body.id}}", "value": "{{body.value}}", "said": "said: {{body.value}}", "missing": "{{body.nope}}",
         "uuid": "{{uuid}}", "at": "{{now}}", "unix": "{{now.unix}}", "n": "{{counter}}", "self": "{{baseURL}}/items/{{uuid}}"}
        """#,
        "page.html": #"""
        <!doctype html>
        <html><head><title id="title">{{body.name}}</title></head>
        <body><h1 id="h1">{{body.name}}</h1><p id="p" title="{{body.name}}">{{uuid}}</p>
        <a id="qs" href="/search?q={{body.name}}&amp;page=2">qs</a></body></html>
        """#,
    ]

    /// JSON values as a client could send them, written out as text: Foundation would round the
    /// big number and reorder nothing else, so the text itself is what is sent.
    static let hostileValues = [
        #""plain""#, #""quote \" backslash \\ slash \/""#, #""</script><script>alert(1)</script>""#, #""é 日本 😀 \u2028 \u0000 \t\n""#,
        #""\ud83d\ude00 surrogates""#, "123456789012345678901234567890", "-0.0", "1.5e300", "0.1", "-42", "true", "null",
        #"{"nested": {"deep": [1, "two", {"three": null}]}, "quote\"key": "</script>"}"#, "[]", "{}", #"[{"a": "\"}]"}]"#,
    ]

    /// For each [request, answer] pair: whether the answer's `value` and `id` are the request's,
    /// and `said` the string value as text (Python's reading, not ours).
    static let jsonOracle = """
        import json, sys
        results = []
        for line in sys.stdin:
            sent, answer = json.loads(line)
            sent, answer = json.loads(sent), json.loads(answer)
            ok = answer["value"] == sent["value"] and type(answer["value"]) is type(sent["value"]) and answer["id"] == sent["id"] and answer["missing"] is None
            if isinstance(sent["value"], str):
                ok = ok and answer["said"] == "said: " + sent["value"]
            results.append(ok)
        print(json.dumps(results))
        """

    @Test func aJSONBodyIsEchoedWithItsTypesAndReadsBackAsSent() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let first = try RawHTTP.request(
                server.port, "POST", "/echo", headers: ["Content-Type": "application/json"], body: Data(#"{"id": 42, "value": {"a": [1, 2.5, "x"]}}"#.utf8))
            #expect(first.status == 201)
            #expect(first.headers["mockapi-contract"] == "echo")
            // Decoding fails unless `id` is a number, `value` an object and `missing` null.
            let object = try first.decoded(Echo<Int, EchoedObject>.self)
            #expect(object.id == 42, "a number stays a number")
            #expect(object.value.a == [.int(1), .double(2.5), .string("x")], "an object stays an object")
            #expect(object.said == #"said: {"a":[1,2.5,"x"]}"#)
            // A form, on a contract that names no body rules: kept too, its values JSON strings.
            let form = try RawHTTP.request(
                server.port, "POST", "/echo", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("id=5&value=%22x%22+%3C%2Fscript%3E".utf8))
            let fields = try form.decoded(Echo<String, String>.self)
            #expect(fields.id == "5" && fields.value == #""x" </script>"# && fields.said == #"said: "x" </script>"#)

            var pairs = ""
            for value in Self.hostileValues {
                let sent = #"{"id": 7, "value": \#(value)}"#
                let answer = try RawHTTP.request(server.port, "POST", "/echo", headers: ["Content-Type": "application/json; charset=utf-8"], body: Data(sent.utf8))
                #expect(answer.status == 201, "\(value)")
                pairs += String(decoding: try JSONSerialization.data(withJSONObject: [sent, answer.text]), as: UTF8.self) + "\n"
            }
            let run = try ExternalTool.run(["python3", "-c", Self.jsonOracle], input: Data(pairs.utf8))
            #expect(run.status == 0, "\(run.stderr)")
            let results = try JSONDecoder().decode([Bool].self, from: Data(run.stdout.utf8))
            for (value, ok) in zip(Self.hostileValues, results) { #expect(ok, "\(value) did not read back as sent") }
            #expect(results.count == Self.hostileValues.count)
        }
    }

    @Test func aMultipartBodysTextPartsAreEchoedByNameAndFilesAreNot() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let boundary = "echo-boundary-7"
            let body =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"value\"\r\n\r\nLöwe \"</script>\"\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"id\"; filename=\"id.txt\"\r\nContent-Type: text/plain\r\n\r\n12\r\n"
                + "--\(boundary)--\r\n"
            let answer = try RawHTTP.request(
                server.port, "POST", "/echo", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: Data(body.utf8))
            #expect(answer.status == 201)
            // Decoding fails unless `id` is null: a file part is not echoed.
            let object = try answer.decoded(Echo<Null, String>.self)
            #expect(object.value == #"Löwe "</script>""# && object.said == #"said: Löwe "</script>""#)
            #expect(server.journal().last?.parts.map(\.name) == ["value", "id"])
        }
    }

    @Test func aMissingBodyOrValueIsNullAsAWholeValueAndEmptyInText() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            for (headers, body) in [([:], ""), (["Content-Type": "application/json"], #"{"id": "#), (["Content-Type": "text/plain"], #"{"id": 1}"#)] {
                let answer = try RawHTTP.request(server.port, "POST", "/echo", headers: headers, body: Data(body.utf8))
                #expect(answer.status == 201)
                // Decoding fails unless `id`, `value` and `missing` are null.
                let object = try answer.decoded(Echo<Null, Null>.self)
                #expect(object.said == "said: ", "\(body): \(answer.text)")
            }
        }
    }

    @Test func uuidsAreFreshPerAnswerAndNowAndCounterAreReadable() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            var uuids: Set<String> = []
            var counters: [Int] = []
            let parser = ISO8601DateFormatter()
            for _ in 0..<100 {
                let answer = try RawHTTP.request(server.port, "POST", "/echo", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
                let object = try answer.decoded(MadeValues.self)
                #expect(UUID(uuidString: object.uuid) != nil, "\(object.uuid)")
                #expect(object.link == "http://127.0.0.1:\(server.port)/items/\(object.uuid)", "one uuid per answer")
                uuids.insert(object.uuid)
                let at = try #require(parser.date(from: object.at), "\(object.at)")
                #expect(abs(at.timeIntervalSinceNow) < 60)
                #expect(object.unix == Int(at.timeIntervalSince1970))
                counters.append(object.n)
            }
            #expect(uuids.count == 100)
            // One count per process, which other tests' answers share: rising, not consecutive.
            #expect(counters.first! >= 1 && zip(counters, counters.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test func placeholdersFalseServesTheTextAsWritten() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let answer = try RawHTTP.request(server.port, "POST", "/literal", headers: ["Content-Type": "application/json"], body: Data(#"{"id": 1}"#.utf8))
            #expect(answer.text == #"{"id":"{{body.id}}","at":"{{now}}"}"#)
        }
    }

    /// A body value in a page the mock serves (same origin as its journal) stays text and
    /// attribute values, from a JSON body and from a form alike.
    @Test func hostileBodyValuesInAnHTMLPageStayText() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            for value in MarkupInjectionTests.hostile {
                let json = JSONValue.string(value).serialized
                let form = "name=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                for (type, body) in [("application/json", #"{"name": \#(json)}"#), ("application/x-www-form-urlencoded", form)] {
                    let answer = try RawHTTP.request(server.port, "POST", "/page", headers: ["Content-Type": type], body: Data(body.utf8))
                    #expect(answer.status == 200, "\(type): \(answer.text)")
                    let run = try ExternalTool.run(["python3", "-c", MarkupInjectionTests.oracle], input: Data(answer.text.utf8))
                    #expect(run.status == 0, "\(run.stderr)")
                    let parsed = try JSONDecoder().decode(MarkupInjectionTests.Parsed.self, from: Data(run.stdout.utf8))
                    #expect(parsed.tags.map(\.first) == ["html", "head", "title", "body", "h1", "p", "a"], "\(type): \(value)")
                    #expect(!parsed.tags.flatMap { $0.dropFirst() }.contains { $0.hasPrefix("on") })
                    #expect(parsed.attributes["p"]?["title"] == value, "\(type): the value reads back as sent")
                    #expect(parsed.text["h1"] == value && parsed.text["title"] == value)
                    let href = try #require(parsed.attributes["qs"]?["href"])
                    let components = try #require(URLComponents(string: href))
                    #expect(components.queryItems?.map(\.name) == ["q", "page"] && components.queryItems?.first?.value == value, "\(href)")
                    #expect(UUID(uuidString: parsed.text["p"] ?? "") != nil)
                }
            }
        }
    }
}

/// JSON null, and only null: a member of this type must be there and be null.
private struct Null: Decodable {
    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        guard value.decodeNil() else { throw DecodingError.typeMismatch(Null.self, .init(codingPath: decoder.codingPath, debugDescription: "not null")) }
    }
}

/// The echo fixture's answer: `id` and `value` of the types the request's were (`Null` where it
/// had none), `missing` null.
private struct Echo<ID: Decodable, Value: Decodable>: Decodable {
    var id: ID
    var value: Value
    var said: String
    var missing: Null
}

/// `{"a": [1, 2.5, "x"]}` echoed: each element of the type sent.
private struct EchoedObject: Decodable {
    enum Scalar: Decodable, Equatable {
        case int(Int), double(Double), string(String)

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let int = try? value.decode(Int.self) {
                self = .int(int)
            } else if let double = try? value.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    var a: [Scalar]
}

/// The values an answer makes of its own.
private struct MadeValues: Decodable {
    var uuid: String
    var link: String
    var at: String
    var unix: Int
    var n: Int

    enum CodingKeys: String, CodingKey { case uuid, link = "self", at, unix, n }
}
