import Foundation
import MockAPITestSupport
import MockAPIVerify
import Testing

/// The docs' Swift entry points, from outside the package (this target has no `package` access).
@Suite struct DocumentedEntryPointsTests {
    /// Code spans in the docs that read as Swift but are not mockapi's API, and why.
    static let notOurs: [String: String] = [
        "asURLRequest(baseURL:)": "the app's own router method",
        "route(_:) backing": "a test's name as Swift Testing shows it",
        ".convertFromSnakeCase": "Foundation's JSONDecoder strategy",
        "urlSession(_:task:didReceive:completionHandler:)": "Foundation's URLSessionTaskDelegate method",
        ".cancelAuthenticationChallenge": "Foundation's challenge disposition",
        ".local": "mDNS host names, in the App Transport Security note",
    ]

    static let pages = ["README.md", "docs/swift.md", "docs/recipes.md"]

    /// Every code span of those pages that reads as a Swift call or member (`.custom("Name") { … }`,
    /// `TextReport.render(report)`, `.claimed`) is used in DocumentedEntryPoints.swift under a
    /// `// documented:` line quoting it, and every such line quotes a span the docs still have.
    @Test func everyDocumentedEntryPointIsBuiltFromOutside() throws {
        var documented: Set<String> = []
        for page in Self.pages {
            let text = try String(contentsOf: BundledAPI.root.appendingPathComponent(page), encoding: .utf8)
            documented.formUnion(MarkdownSpans.codeSpans(in: text).filter(MarkdownSpans.readsAsSwiftAPI))
        }
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DocumentedEntryPoints.swift"),
            encoding: .utf8)
        let built = Set(
            source.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("// documented: `"), trimmed.hasSuffix("`") else { return nil }
                return String(trimmed.dropFirst("// documented: `".count).dropLast())
            })

        #expect(documented.contains(#".custom("Name") { data in try yourParser(data) }"#), "the README's .custom line is found")
        let missing = documented.subtracting(built).subtracting(Self.notOurs.keys).sorted()
        #expect(missing == [], "documented, but not built as an outside consumer in DocumentedEntryPoints.swift")
        let stale = built.subtracting(documented).sorted()
        #expect(stale == [], "DocumentedEntryPoints.swift quotes spans the docs no longer have")
        #expect(Set(Self.notOurs.keys).subtracting(documented).sorted() == [], "notOurs lists spans the docs no longer have")
    }

    /// A resource's own hand-written `parse`, checked through `.custom`: the correct parser passes,
    /// and a parser that reads a key the body does not have fails the route, naming the fixture.
    @Test func customDecoderChecksAHandWrittenParser() async throws {
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let options = VerifyOptions(scope: .claimed, strictCoverage: true)

        let clean = try await ContractRunner(set: set, checks: [DocumentedEntryPoints.activitiesCheck()], options: options).run()
        #expect(clean.exitCode == 0, "\(TextReport.render(clean))")
        #expect(clean.notes == ["drift not checked: HandParsedActivity is decoded by custom code (.custom), so which keys it reads cannot be known"])

        let buggy = try await ContractRunner(set: set, checks: [DocumentedEntryPoints.activitiesCheck(dateKey: "created")], options: options).run()
        #expect(buggy.exitCode == 1)
        let failure = try #require(buggy.routes.first?.failures.first)
        #expect(failure.check == .decoding)
        #expect(
            failure.message == """
                response "default" does not decode into HandParsedActivity:
                  fixtures/activities/page1.json: activities[]: no number under "created"
                """)
        #expect(DocumentedEntryPoints.summary(of: buggy).first == "exit 1")
        #expect(DocumentedEntryPoints.renderings(of: buggy).allSatisfy { $0.contains("HandParsedActivity") })
    }

    /// `withMockServer` and `run(against:)` from outside: the runner reads a running server's journal.
    @Test func runAgainstARunningServer() async throws {
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try await withMockServer { server in
            let report = try await DocumentedEntryPoints.runAgainst(server.baseURL, set: set)
            #expect(report.exitCode == 0, "\(TextReport.render(report))")
            #expect(server.requests(contract: "activities", status: 200).count == 2)
        }
    }
}

/// Code spans of a Markdown page, outside fenced blocks.
enum MarkdownSpans {
    static func codeSpans(in markdown: String) -> [String] {
        var prose: [Character] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```"), trimmed.dropFirst(3).allSatisfy(\.isLetter) {
                fenced.toggle()
                continue
            }
            if !fenced { prose += line + " " }
        }
        var spans: [String] = []
        var index = prose.startIndex
        while index < prose.endIndex {
            guard prose[index] == "`" else {
                index += 1
                continue
            }
            var run = 0
            while index + run < prose.endIndex, prose[index + run] == "`" { run += 1 }
            let start = index + run
            var end = start
            // The span closes at the next run of exactly as many backticks.
            while end < prose.endIndex {
                var closing = 0
                while end + closing < prose.endIndex, prose[end + closing] == "`" { closing += 1 }
                if closing == run { break }
                end += max(closing, 1)
            }
            guard end < prose.endIndex else { break }
            spans.append(String(prose[start..<end]).trimmingCharacters(in: .whitespaces))
            index = end + run
        }
        return spans
    }

    /// `.member`, `name(…)`, `Type.name(…)` or `name { … }`: how the docs write a Swift entry point.
    static func readsAsSwiftAPI(_ span: String) -> Bool {
        let head = span.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        guard let first = head.first, first.isLetter || first == "_" || first == "." else { return false }
        let rest = span.dropFirst(head.count)
        if rest.isEmpty { return first == "." && head.dropFirst().first?.isLowercase == true && !head.dropFirst().contains(".") }
        return rest.first == "(" || rest.drop { $0 == " " }.first == "{"
    }
}
