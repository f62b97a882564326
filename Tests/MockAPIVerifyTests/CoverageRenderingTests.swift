import Testing

@testable import MockAPIVerify

/// The text coverage report of a large run: groups beyond the first twenty summed up, no line
/// longer than a terminal's few widths.
@Suite struct CoverageRenderingTests {
    private func report(unmatched: [CoverageReport.Refusal] = [], contracts: Int = 3) -> CoverageReport {
        CoverageReport(
            target: "http://127.0.0.1:8080", requests: unmatched.count + 1, unmatched: unmatched, violations: [],
            contracts: (0..<contracts).map { .init(name: "operation_number_\($0)", method: "GET", path: "/v1/things/\($0)", file: "c\($0).json", served: $0 == 0 ? 1 : 0) },
            strict: false, evicted: 0)
    }

    @Test func thousandsOfUncoveredContractsAreOneShortLine() {
        let text = TextCoverageReport.render(report(contracts: 3_000))

        let line = try! #require(text.split(separator: "\n").first { $0.hasPrefix("warning  contracts no request exercised: ") })
        #expect(line.count <= TextCoverageReport.maxLineLength)
        #expect(line.hasPrefix("warning  contracts no request exercised: operation_number_1, operation_number_2, "))
        #expect(line.hasSuffix(" more (--format json lists them all)"))
    }

    @Test func manyGroupsAreCappedAndLongProblemsCut() {
        let refusals = (1...30).map { index in
            CoverageReport.Refusal(
                id: index, method: "GET", target: "/v1/kind\(index)/\(index)", status: 404, contract: nil,
                problem: "no contract matches " + String(repeating: "x", count: index == 1 ? 1_000 : 10))
        }
        let text = TextCoverageReport.render(report(unmatched: refusals))

        #expect(text.contains("FAIL  30 requests matched no contract:\n"))
        #expect(text.contains("      … and 10 more groups (10 requests): --format json lists every request\n"))
        #expect(text.contains("… (7") && text.contains(" more characters: --format json has them)"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= TextCoverageReport.maxLineLength + 60 })
    }

    @Test func identifiersFoldIntoThePathShape() {
        #expect(CoverageReport.pathShape("/v1/projects/42/backers/2001?page=2") == "/v1/projects/{id}/backers/{id}")
        #expect(CoverageReport.pathShape("/v1/users/3f2504e0-4f89-11d3-9a0c-0305e82c3301") == "/v1/users/{id}")
        #expect(CoverageReport.pathShape("/v1/users/self") == "/v1/users/self")
    }
}
