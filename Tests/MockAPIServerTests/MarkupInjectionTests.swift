import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Hostile query values echoed into an HTML page over real sockets, the answer read by Python's
/// `html.parser` (another implementation than ours): the page keeps the fixture's elements and
/// attributes, no `on…` attribute or `javascript:` URL appears, and every value reads back as sent.
@Suite struct MarkupInjectionTests {
    static let page = """
        <!doctype html>
        <html><head><title id="title">{{query.q}}</title></head>
        <body>
        <h1 id="h1">{{query.q}}</h1>
        <p id="p" title="{{query.q}}" data-x='{{query.q}}'>x</p>
        <a id="rel" href="/search/{{query.q}}">rel</a>
        <a id="qs" href="/search?q={{query.q}}&amp;page=2">qs</a>
        <a id="base" href="{{baseURL}}/p#{{query.q}}">b</a>
        <textarea id="ta">{{query.q}}</textarea>
        </body></html>
        """

    static let hostile = [
        "a onfocus=alert(1) autofocus", #""><script>alert(1)</script>"#, "' onmouseover='alert(1)' x='", "`onload=alert(1)` ``",
        "&#x6a;avascript:alert(1)", "javascript:alert(1)", " \t\njavascript:alert(1)", "\u{01}\u{1F}\u{7F}data:text/html,<b>x</b>",
        "//evil.example/x.js", "</title><script>alert(1)</script>", "</textarea><img src=x onerror=alert(1)>", "<!--", "-->",
        "]]><x>", "é ü 日本 \u{2028}", String(repeating: #"x"'<&"#, count: 600), "plain",
    ]

    /// What html.parser saw: each start tag with its attributes, and the text of each element with an id.
    struct Parsed: Decodable, Equatable {
        var tags: [[String]]
        var attributes: [String: [String: String]]
        var text: [String: String]
    }

    static let oracle = """
        import json, sys
        from html.parser import HTMLParser
        class Page(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.tags, self.attributes, self.text, self.current = [], {}, {}, None
            def handle_starttag(self, tag, attrs):
                self.tags.append([tag] + [name for name, _ in attrs])
                named = {name: value or "" for name, value in attrs}
                self.current = named.get("id")
                if self.current: self.attributes[self.current] = named
            def handle_endtag(self, tag):
                self.current = None
            def handle_data(self, data):
                if self.current: self.text[self.current] = self.text.get(self.current, "") + data
        page = Page()
        page.feed(sys.stdin.read())
        page.close()
        print(json.dumps({"tags": page.tags, "attributes": page.attributes, "text": page.text}))
        """

    private func parse(_ html: String) throws -> Parsed {
        let run = try ExternalTool.run(["python3", "-c", Self.oracle], input: Data(html.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONDecoder().decode(Parsed.self, from: Data(run.stdout.utf8))
    }

    /// Every byte but the unreserved ones as %XX: the server gets exactly these bytes.
    private func encoded(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let char = Character(Unicode.Scalar(byte))
            return char.isASCII && (char.isLetter || char.isNumber || "-._~".contains(char)) ? String(char) : String(format: "%%%02X", byte)
        }.joined()
    }

    @Test func hostileValuesStayTextAndAttributeValues() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "search.json": #"""
                {"name": "search", "request": {"method": "GET", "path": "/page", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "page.html"}}}
                """#
            ], fixtures: ["page.html": Self.page])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let benign = try parse(try RawHTTP.request(server.port, "GET", "/page?q=plain").text)
            #expect(benign.tags.map(\.first) == ["html", "head", "title", "body", "h1", "p", "a", "a", "a", "textarea"])
            var targets = Self.hostile.map { (Array($0.utf8), Optional($0)) }
            targets.append(([0xFF, 0xFE, 0xC0, 0xAF, 0x22, 0x3E], nil)) // not UTF-8: whatever it decodes to, it reads back alike
            for (bytes, value) in targets {
                let answer = try RawHTTP.request(server.port, "GET", "/page?q=\(encoded(bytes))")
                #expect(answer.status == 200)
                let parsed = try parse(answer.text)
                #expect(parsed.tags == benign.tags, "the page's elements and attributes, for \(value ?? "non-UTF-8")")
                let attributes = parsed.tags.flatMap { $0.dropFirst() }
                #expect(!attributes.contains { $0.hasPrefix("on") })
                for (_, named) in parsed.attributes {
                    for (name, url) in named where name == "href" {
                        let scheme = String(url.unicodeScalars.filter { $0.value > 0x20 }).lowercased()
                        #expect(!scheme.hasPrefix("javascript:") && !scheme.hasPrefix("data:") && !scheme.hasPrefix("vbscript:"), "\(url)")
                        #expect(url.hasPrefix("/search") || url.hasPrefix("http://127.0.0.1:\(server.port)/p#"), "\(url)")
                    }
                }
                let echoed = try #require(parsed.attributes["p"]?["title"])
                #expect(value == nil || echoed == value, "the value reads back as sent")
                #expect(parsed.text["h1"] == echoed && parsed.text["title"] == echoed && parsed.text["ta"] == echoed)
                #expect(parsed.attributes["p"]?["data-x"] == echoed)
                #expect(parsed.attributes["rel"]?["href"] == "/search/" + echoed, "a path is entity-escaped only")
                let queryHref = try #require(parsed.attributes["qs"]?["href"])
                let query = try #require(URLComponents(string: queryHref))
                #expect(query.queryItems?.map(\.name) == ["q", "page"], "a value in the query stays one parameter")
                let fragmentHref = try #require(parsed.attributes["base"]?["href"])
                let fragment = try #require(URLComponents(string: fragmentHref))
                if value != nil {
                    #expect(query.queryItems?.first?.value == echoed)
                    #expect(fragment.fragment == echoed)
                }
            }
        }
    }

    @Test func aPlaceholderInAnUnquotedAttributeOrAtAURLsStartIsRefusedAtLoad() async throws {
        let set = try TemporaryContractSet(
            contracts: [
                "search.json": #"""
                {"name": "search", "request": {"method": "GET", "path": "/page", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "page.html"}}}
                """#
            ], fixtures: ["page.html": "<p title={{query.q}}>\n<a href=\"{{query.q}}\">x</a>"])
        do {
            let loaded = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
            Issue.record("must not load: \(loaded.contracts.count) contracts")
        } catch {
            #expect(
                error.problems.map(\.description).map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") } == [
                    "$.responses.default.fixture: in the fixture page.html (text/html; charset=utf-8), {{query.q}} on line 1 is in the unquoted value of title=, "
                        + "which a space in the value would end (a onfocus=alert(1) autofocus); quote the attribute: title=\"{{query.q}}\"",
                    "$.responses.default.fixture: in the fixture page.html (text/html; charset=utf-8), {{query.q}} on line 2 starts the URL in href= as its first text, "
                        + "so a request could make it javascript:, data: or another host's //evil.example/x.js; "
                        + "start the value with a fixed path or origin: href=\"/{{query.q}}\", \"./{{query.q}}\" or \"{{baseURL}}/{{query.q}}\"",
                ])
        }
    }
}
