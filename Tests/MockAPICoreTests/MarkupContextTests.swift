import Foundation
import Testing

@testable import MockAPICore

/// Each request placeholder's place in an HTML or XML body, decided at load: escaped where
/// character references keep it data, refused where they cannot.
struct MarkupContextTests {
    private func refusals(_ html: String) throws -> [String] {
        let template = try #require(try ResponseTemplate.parse(Array(html.utf8), escaping: .markup))
        switch template.checkedForMarkup() {
        case .success: return []
        case .failure(let refused): return refused.all.map(\.message)
        }
    }

    private func render(_ html: String, _ value: String) throws -> String {
        let template = try #require(try ResponseTemplate.parse(Array(html.utf8), escaping: .markup))
        let checked = try template.checkedForMarkup().get()
        return String(decoding: checked.render(baseURL: "http://127.0.0.1:9", query: [QueryArgument("q", value)]), as: UTF8.self)
    }

    @Test func textAndQuotedValuesAreEscapedAndLoad() throws {
        for html in [
            "<p>{{query.q}}</p>", "<p title=\"{{query.q}}\">", "<p title='{{query.q}}'>", "<title>{{query.q}}</title>",
            "<textarea>a {{query.q}}</textarea>", "<P TITLE = \"x {{query.q}}\">", "<a href=\"/s/{{query.q}}\">",
            "<a href='./{{query.q}}'>", "<a href=\"?q={{query.q}}\">", "<a href=\"#{{query.q}}\">", "<a href=\"{{baseURL}}/p/{{query.q}}\">",
            "<a href=\"https://example.com/{{query.q}}\">", "<a href=\"mailto:{{query.q}}\">", "<a href=\"/a\">{{query.q}}</a>",
            "<script>var a = 1;</script><p>{{query.q}}</p>", "<!-- c --><p>{{query.q}}</p>", "<svg><a xlink:href=\"/x/{{query.q}}\"/></svg>",
            "<p data-q=\"{{query.q}}\" open>", "<img alt=\"{{query.q}}\" src=\"/i.png\">", "<a href=\"/a/{{query.q}}/{{query.q}}\">",
        ] {
            #expect(try refusals(html) == [], "\(html)")
        }
        #expect(try render("<p title=\"{{query.q}}\">{{query.q}}</p>", "\"'`<>&") == "<p title=\"&quot;&#39;`&lt;&gt;&amp;\">&quot;&#39;`&lt;&gt;&amp;</p>")
    }

    @Test func aURLsQueryOrFragmentIsPercentEncoded() throws {
        #expect(try render("<a href=\"/s?q={{query.q}}&amp;p=2\">", "a&b=c #\"é") == "<a href=\"/s?q=a%26b%3Dc%20%23%22%C3%A9&amp;p=2\">")
        #expect(try render("<a href=\"/s#{{query.q}}\">{{query.q}}</a>", "<x>") == "<a href=\"/s#%3Cx%3E\">&lt;x&gt;</a>")
        #expect(try render("<a href=\"/s/{{query.q}}\">", "a/b?c") == "<a href=\"/s/a/b?c\">", "a path keeps its value's slashes")
    }

    @Test func contextsNoEscapingMakesSafeAreRefusedWithTheFix() throws {
        #expect(
            try refusals("<p>\n<p title={{query.q}}>")
                == ["{{query.q}} on line 2 is in the unquoted value of title=, which a space in the value would end (a onfocus=alert(1) autofocus); quote the attribute: title=\"{{query.q}}\""])
        #expect(
            try refusals("<a href=\"{{query.q}}\">")
                == [
                    "{{query.q}} on line 1 starts the URL in href= as its first text, so a request could make it javascript:, data: or another host's //evil.example/x.js; "
                        + "start the value with a fixed path or origin: href=\"/{{query.q}}\", \"./{{query.q}}\" or \"{{baseURL}}/{{query.q}}\""
                ])
        let cases: [(String, String)] = [
            ("<script>var q = '{{query.q}}';</script>", "is inside <script>"),
            ("<STYLE>p { color: {{query.q}} }</STYLE>", "is inside <style>"),
            ("<!-- {{query.q}} -->", "is inside a comment"),
            ("<![CDATA[{{query.q}}]]>", "is inside a CDATA section"),
            ("<!DOCTYPE {{query.q}}>", "is inside a declaration"),
            ("<?xml version=\"{{query.q}}\"?>", "is inside a declaration"),
            ("<{{query.q}}>", "is in a tag name"),
            ("a <{{query.q}}", "is in a tag name"),
            ("</{{query.q}}>", "is in a tag name"),
            ("<p{{query.q}}>", "is in a tag name"),
            ("<p {{query.q}}>", "is where an attribute name goes"),
            ("<p title=\"x\"{{query.q}}>", "is where an attribute name goes"),
            ("<p data-{{query.q}}=\"1\">", "is where an attribute name goes"),
            ("<p title= {{query.q}}>", "is in the unquoted value of title="),
            ("<p title=x{{query.q}}>", "is in the unquoted value of title="),
            ("<p onclick=\"go('{{query.q}}')\">", "is in onclick=, which a browser runs as JavaScript"),
            ("<body ONLOAD='{{query.q}}'>", "is in onload=, which a browser runs as JavaScript"),
            ("<p style=\"color: {{query.q}}\">", "is in style="),
            ("<iframe srcdoc=\"{{query.q}}\">", "is in srcdoc="),
            ("<svg><set attributeName=\"href\" to=\"{{query.q}}\"/></svg>", "is in an attribute of <set>"),
            ("<a href=\" \t{{query.q}}\">", "starts the URL in href= as its first text"),
            ("<a href=\"java{{query.q}}\">", "starts the URL in href= after java, which does not yet fix the scheme"),
            ("<a href=\"javascript:{{query.q}}\">", "starts the URL in href= inside a javascript: URL"),
            ("<a href=\"DATA:text/html,{{query.q}}\">", "starts the URL in href= inside a data: URL"),
            ("<script src=\"/{{query.q}}\"></script>", "starts the URL in src= after only /"),
            ("<script src=\"\\{{query.q}}\"></script>", "starts the URL in src= after only \\"),
            ("<a href=\"//{{query.q}}\">", "starts the URL in href= after only //"),
            ("<link href=\"https://{{query.q}}\">", "starts the URL in href= in the host (after https://)"),
            ("<link href=\"https:{{query.q}}\">", "starts the URL in href= after https:, before the host"),
            ("<a href=\"{{baseURL}}{{query.q}}\">", "starts the URL in href= in the host"),
            ("<a href=\"&#47;{{query.q}}\">", "starts the URL in href= after a character reference"),
            ("<form action=\"{{query.q}}\">", "starts the URL in action="),
            ("<img srcset=\"{{query.q}} 1x\">", "starts the URL in srcset="),
            ("<svg><use xlink:href=\"{{query.q}}\"/></svg>", "starts the URL in xlink:href="),
            ("<button formaction='{{query.q}}'>", "starts the URL in formaction="),
        ]
        for (html, reason) in cases {
            let found = try refusals(html)
            #expect(found.count == 1 && found[0].hasPrefix("{{query.q}} on line 1 \(reason)"), "\(html): \(found)")
        }
    }

    @Test func theTokenizerFindsTheEndOfScriptsAndComments() throws {
        #expect(try refusals("<script>if (a < b) {}</SCRIPT >{{query.q}}<style>a{}</style><p title='{{query.q}}'>") == [])
        #expect(try refusals("<!-- a -- b -> --><p>{{query.q}}</p>") == [])
        #expect(try refusals("<script>document.write('</scr' + 'ipt>{{query.q}}')</script>").count == 1)
        // <title> and <textarea> hold text in HTML but markup in XML and in an HTML <svg>: a
        // placeholder must be safe in both readings.
        #expect(try refusals("<textarea>a {{query.q}} <b></textarea><title>{{query.q}}</title>") == [])
        #expect(try refusals("<title><a title=\"</title><p title={{query.q}}>\"></title>").count == 1, "HTML's reading")
        #expect(try refusals("<svg><title><a href=\"{{query.q}}\">x</a></title></svg>").count == 1, "XML's reading")
        #expect(try refusals("<svg><title><a title=\"</title>\" href=\"{{query.q}}\">x</a></title></svg>").count == 1, "XML's reading")
        #expect(try refusals("<svg:svg><svg:script>{{query.q}}</svg:script></svg:svg>").count == 1, "a prefixed <script>")
        #expect(try refusals("<a x:onclick=\"{{query.q}}\" l:href=\"{{query.q}}\" svg:style=\"{{query.q}}\">").count == 3, "prefixed attributes")
    }

    @Test func aRefusalNamesTheFileJSONPathPlaceholderAndFix() throws {
        let folder = try TestFolder(
            contracts: [
                "page.json": #"""
                {"name": "page", "request": {"method": "GET", "path": "/page", "query": {"q": {"required": false}}},
                 "responses": {"default": {"status": 200, "fixture": "page.html"},
                               "svg": {"status": 200, "fixture": "logo.svg"}}}
                """#
            ], fixtures: ["page.html": "<h1>{{query.q}}</h1>\n<a title={{query.q}} href=\"{{query.q}}\">x</a>", "logo.svg": "<svg><script>{{query.q}}</script></svg>"])
        do {
            let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("an unquoted attribute must not load: \(set.contracts.count)")
        } catch {
            let lines = error.problems.map(\.description)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.allSatisfy { $0.contains("page.json") })
            #expect(
                lines.first?.contains("$.responses.default.fixture: in the fixture page.html (text/html; charset=utf-8), {{query.q}} on line 2 is in the unquoted value of title=") == true, "\(lines)")
            #expect(lines.last?.contains("$.responses.svg.fixture: in the fixture logo.svg (image/svg+xml), {{query.q}} on line 1 is inside <script>") == true, "\(lines)")
        }
    }
}
