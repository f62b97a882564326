import Foundation
import MockAPITestSupport
import MockAPIVerify
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `--junit FILE`: well-formed JUnit XML, one testcase per route, a `<failure>` for each failed check.
@Suite struct JUnitReportTests {
    @Test func failingRunParsesWithOneTestcasePerRoute() async throws {
        let report = try await runWithFailingBacking()

        let xml = try JUnitDocument(JUnitReport.render(report))

        #expect(xml.suite["tests"] == "19")
        #expect(xml.suite["failures"] == "1")
        #expect(xml.testcases.map(\.name) == report.routes.map(\.name))
        #expect(xml.testcases.allSatisfy { $0.classname == "mockapi.verify.routes" })
        #expect(xml.failures.map(\.testcase) == ["backing"])
        #expect(xml.failures.first?.type == "contract")
        #expect(xml.failures.first?.text == report.route("backing")?.failures.first?.message)
    }

    /// A CI page often shows only a failure's message: it is the problem, not the request URL
    /// that opens the block (the whole block stays in the failure's text).
    @Test func failureMessageIsTheProblemNotTheRequest() async throws {
        let report = try await runWithFailingBacking()

        let message = try #require(try JUnitDocument(JUnitReport.render(report)).failures.first?.message)

        #expect(message.hasPrefix("no contract matches GET /v1/projects/42/backer/2001"), "\(message)")
        #expect(!message.contains("sent:"))
    }

    @Test func uncoveredContractIsASkippedTestcase() async throws {
        let set = try bundledCopy()
        try set.write(
            #"{"name": "orphan", "request": {"method": "GET", "path": "/v1/orphans"}, "responses": {"default": {"status": 200}}}"#,
            to: "contracts/orphan.json")

        let xml = try JUnitDocument(JUnitReport.render(try await verify(set)))

        #expect(xml.testcases.count == 20)
        #expect(xml.testcases.last?.name == "orphan")
        #expect(xml.testcases.last?.classname == "mockapi.verify.coverage")
        #expect(xml.skipped == ["orphan"])
        #expect(xml.failures.isEmpty)
    }
}

/// The parts of a JUnit document the tests look at, read with Foundation's `XMLParser`.
private final class JUnitDocument: NSObject, XMLParserDelegate {
    struct Testcase { var name: String; var classname: String }
    struct Failure { var testcase: String; var type: String; var message: String; var text = "" }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    private(set) var suite: [String: String] = [:]
    private(set) var testcases: [Testcase] = []
    private(set) var failures: [Failure] = []
    private(set) var skipped: [String] = []
    private var inFailure = false

    init(_ text: String) throws {
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw ParseError(description: "not well-formed XML: \(parser.parserError.map(String.init(describing:)) ?? "?")\n\(text)")
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "testsuite": suite = attributes
        case "testcase": testcases.append(Testcase(name: attributes["name"] ?? "", classname: attributes["classname"] ?? ""))
        case "failure":
            failures.append(Failure(testcase: testcases.last?.name ?? "", type: attributes["type"] ?? "", message: attributes["message"] ?? ""))
            inFailure = true
        case "skipped": skipped.append(testcases.last?.name ?? "")
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { failures[failures.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "failure" { inFailure = false }
    }
}
