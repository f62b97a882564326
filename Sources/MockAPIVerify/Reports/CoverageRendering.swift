import Foundation
import MockAPICore

/// `mockapi coverage` for people: refused requests first, then contract use, a summary last.
package enum TextCoverageReport {
    package static func render(_ report: CoverageReport) -> String {
        var lines = ["mockapi coverage: \(report.requests) requests journaled by \(report.target)", ""]
        if report.noRequests {
            lines.append("FAIL  \(noRequestsSentence)")
            lines.append("")
        }
        if report.evicted > 0 {
            lines.append("FAIL  \(evictedSentence(report.evicted))")
            lines.append("")
        }
        func list(_ title: String, _ refusals: [CoverageReport.Refusal]) {
            guard !refusals.isEmpty else { return }
            lines.append("FAIL  \(refusals.count) \(title):")
            for refusal in refusals {
                let contract = refusal.contract.map { " (contract \($0))" } ?? ""
                lines.append("      #\(refusal.id) \(refusal.method) \(refusal.target) → \(refusal.status)\(contract): \(refusal.problem)")
            }
            lines.append("")
        }
        list(report.unmatched.count == 1 ? "request matched no contract" : "requests matched no contract", report.unmatched)
        list(report.violations.count == 1 ? "request broke its contract" : "requests broke their contracts", report.violations)
        let width = report.contracts.map(\.name.count).max() ?? 0
        for use in report.contracts where use.served > 0 {
            lines.append("PASS  \(use.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(use.served) served  \(use.method) \(use.path)")
        }
        if !report.uncovered.isEmpty {
            lines.append("")
            lines.append("\(report.strict ? "FAIL" : "warning")  contracts no request exercised: \(report.uncovered.map(\.name).joined(separator: ", "))")
        }
        lines.append("")
        lines.append(
            "\(report.requests) requests\(report.evicted > 0 ? " (\(report.evicted) more evicted unread)" : ""): \(report.unmatched.count) unmatched, \(report.violations.count) breaking a contract; "
                + "\(report.contracts.count - report.uncovered.count) of \(report.contracts.count) contracts exercised")
        return lines.joined(separator: "\n")
    }
}

/// Why a coverage run that journaled nothing fails.
let noRequestsSentence = "no requests reached the server: is the client pointed at it?"

/// Why a coverage run with evicted requests fails, and what to do about it.
func evictedSentence(_ count: Int) -> String {
    "\(count) request\(count == 1 ? " was" : "s were") evicted from the journal before coverage read \(count == 1 ? "it" : "them"), "
        + "so \(count == 1 ? "it was" : "they were") not checked: raise serve --journal-bytes (or --journal-size), or read the journal sooner"
}

/// `mockapi coverage --format json`.
package enum JSONCoverageReport {
    package static func render(_ report: CoverageReport) -> String {
        func refusals(_ list: [CoverageReport.Refusal]) -> JSONValue {
            .array(
                list.map {
                    [
                        "id": .int($0.id), "method": .string($0.method), "target": .string($0.target), "status": .int($0.status),
                        "contract": $0.contract.map(JSONValue.string) ?? nil, "problem": .string($0.problem),
                    ]
                })
        }
        let document: JSONValue = [
            "summary": [
                "requests": .int(report.requests),
                "unmatched": .int(report.unmatched.count),
                "violations": .int(report.violations.count),
                "contracts": .int(report.contracts.count),
                "uncoveredContracts": .array(report.uncovered.map { .string($0.name) }),
                "strict": .bool(report.strict),
                "evicted": .int(report.evicted),
                "noRequests": .bool(report.noRequests),
                "exitCode": .int(Int(report.exitCode)),
            ],
            "target": .string(report.target),
            "unmatched": refusals(report.unmatched),
            "violations": refusals(report.violations),
            "contracts": .array(
                report.contracts.map {
                    [
                        "name": .string($0.name), "method": .string($0.method), "path": .string($0.path),
                        "file": .string($0.file), "served": .int($0.served),
                    ]
                }),
        ]
        return document.prettySerialized
    }
}

/// `mockapi coverage --junit FILE`: one testcase per contract (skipped, or failed under strict,
/// when no request exercised it) and one failed testcase per refused request.
package enum JUnitCoverageReport {
    package static func render(_ report: CoverageReport) -> String {
        var cases: [String] = []
        if report.evicted > 0 {
            let message = JUnitReport.escape(evictedSentence(report.evicted))
            cases.append(#"    <testcase classname="mockapi.coverage.journal" name="evicted requests"><failure type="evicted" message="\#(message)"/></testcase>"#)
        }
        if report.noRequests {
            cases.append(#"    <testcase classname="mockapi.coverage.journal" name="requests"><failure type="no-requests" message="\#(JUnitReport.escape(noRequestsSentence))"/></testcase>"#)
        }
        for refusal in report.unmatched + report.violations {
            let name = "#\(refusal.id) \(refusal.method) \(refusal.target)"
            let kind = refusal.contract == nil ? "unmatched" : "violation"
            cases.append(
                #"    <testcase classname="mockapi.coverage.requests" name="\#(JUnitReport.escape(name))"><failure type="\#(kind)" message="\#(JUnitReport.escape(refusal.problem))">\#(JUnitReport.escape("status \(refusal.status): \(refusal.problem)"))</failure></testcase>"#
            )
        }
        var skipped = 0
        for use in report.contracts {
            let open = #"    <testcase classname="mockapi.coverage.contracts" name="\#(JUnitReport.escape(use.name))""#
            if use.served > 0 { cases.append(open + "/>"); continue }
            let message = JUnitReport.escape("no request exercised contract \(use.name)")
            if report.strict {
                cases.append(open + #"><failure type="coverage" message="\#(message)"/></testcase>"#)
            } else {
                skipped += 1
                cases.append(open + #"><skipped message="\#(message)"/></testcase>"#)
            }
        }
        let failures = (report.evicted > 0 || report.noRequests ? 1 : 0) + report.unmatched.count + report.violations.count + (report.strict ? report.uncovered.count : 0)
        return
            ([
                #"<?xml version="1.0" encoding="UTF-8"?>"#,
                #"<testsuites name="mockapi coverage" tests="\#(cases.count)" failures="\#(failures)">"#,
                #"  <testsuite name="mockapi coverage" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="\#(skipped)">"#,
            ]
            + cases + ["  </testsuite>", "</testsuites>"]).joined(separator: "\n") + "\n"
    }
}
