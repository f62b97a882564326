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
            let groups = CoverageReport.groups(of: refusals)
            let grouped = groups.count < refusals.count ? ", in \(groups.count) group\(groups.count == 1 ? "" : "s")" : ""
            lines.append("FAIL  \(refusals.count) \(title)\(grouped):")
            for group in groups.prefix(maxGroups) {
                let first = group.refusals[0]
                let contract = first.contract.map { " (contract \($0))" } ?? ""
                guard group.refusals.count > 1 else {
                    lines.append(capped("      \(first.reference) \(first.method) \(first.target) → \(first.status)\(contract): \(first.problem)"))
                    continue
                }
                lines.append(capped("      \(group.refusals.count) × \(group.shape) → \(first.status)\(contract): \(first.problem)"))
                let examples = group.refusals.prefix(examplesPerGroup).map { "\($0.reference) \($0.method) \($0.target)" }
                let more = group.refusals.count - examples.count
                lines.append(capped("          e.g. \(examples.joined(separator: ", "))\(more > 0 ? ", and \(more) more" : "")"))
            }
            if groups.count > maxGroups {
                let rest = groups.dropFirst(maxGroups).reduce(0) { $0 + $1.refusals.count }
                lines.append("      … and \(groups.count - maxGroups) more groups (\(rest) requests): --format json lists every request")
            }
            lines.append("")
        }
        list(report.unmatched.count == 1 ? "request matched no contract" : "requests matched no contract", report.unmatched)
        list(report.violations.count == 1 ? "request broke its contract" : "requests broke their contracts", report.violations)
        if !report.browsing.isEmpty {
            let requests = report.browsing.map { "\($0.reference) \($0.method) \($0.target) → \($0.status)" }
            let lead = "note  \(report.browsing.count) request\(report.browsing.count == 1 ? "" : "s") from a browser, not counted: "
            lines.append(capped(lead + namesFitting(requests, after: lead)))
            lines.append("")
        }
        let width = report.contracts.map(\.name.count).max() ?? 0
        for use in report.contracts where use.served > 0 {
            lines.append("PASS  \(use.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(use.served) served  \(use.method) \(use.path)")
        }
        if !report.uncovered.isEmpty {
            lines.append("")
            let lead = "\(report.strict ? "FAIL" : "warning")  contracts no request exercised: "
            lines.append(capped(lead + namesFitting(report.uncovered.map(\.name), after: lead)))
        }
        lines.append("")
        lines.append(
            "\(report.requests) requests\(report.evicted > 0 ? " (\(report.evicted) more evicted unread)" : ""): \(report.unmatched.count) unmatched, \(report.violations.count) breaking a contract"
                + (report.browsing.isEmpty ? "" : ", \(report.browsing.count) from a browser") + "; "
                + "\(report.contracts.count - report.uncovered.count) of \(report.contracts.count) contracts exercised")
        return lines.joined(separator: "\n")
    }

    /// Refusal groups listed before the rest are summed up in one line.
    static let maxGroups = 20
    /// Requests named under a group of several.
    static let examplesPerGroup = 3
    /// The longest line the report prints: a person reads it in a terminal or a CI log.
    static let maxLineLength = 300

    /// `line` cut at `maxLineLength`, saying how much was cut.
    static func capped(_ line: String) -> String {
        guard line.count > maxLineLength else { return line }
        return "\(line.prefix(maxLineLength))… (\(line.count - maxLineLength) more characters: --format json has them)"
    }

    /// `names` joined by commas, as many as fit in a line after `lead`, then how many more there are.
    static func namesFitting(_ names: [String], after lead: String) -> String {
        let all = names.joined(separator: ", ")
        if lead.count + all.count <= maxLineLength { return all }
        // Room for ", and 12345 more (--format json lists them all)".
        let budget = maxLineLength - lead.count - 50
        var shown: [String] = []
        var length = 0
        for name in names {
            if !shown.isEmpty, length + 2 + name.count > budget { break }
            shown.append(name)
            length += (shown.count == 1 ? 0 : 2) + name.count
        }
        let more = names.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? ", and \(more) more (--format json lists them all)" : "")
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
                    var refusal = JSONObject([
                        ("id", .int($0.id)), ("method", .string($0.method)), ("target", .string($0.target)), ("status", .int($0.status)),
                        ("contract", $0.contract.map(JSONValue.string) ?? .null), ("problem", .string($0.problem)),
                    ])
                    // Only when several journals were read: one journal's report keeps its shape.
                    if let journal = $0.journal { refusal["journal"] = .string(journal) }
                    return JSONValue.object(refusal)
                })
        }
        let document: JSONValue = [
            "summary": [
                "requests": .int(report.requests),
                "unmatched": .int(report.unmatched.count),
                "violations": .int(report.violations.count),
                "browsing": .int(report.browsing.count),
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
            "browsing": refusals(report.browsing),
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
            let name = "\(refusal.reference) \(refusal.method) \(refusal.target)"
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
