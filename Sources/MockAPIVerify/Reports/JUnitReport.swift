import Foundation
import MockAPICore

/// JUnit XML (`--junit FILE`): one testcase per route, plus one per uncovered contract
/// (a failure under strict coverage, skipped otherwise), as CI systems expect it.
public enum JUnitReport {
    /// - Parameter name: the suite's name; its words, joined by dots, prefix the testcase class names.
    public static func render(_ report: VerifyReport, name: String = "mockapi verify") -> String {
        let suite = escape(name)
        let classPrefix = escape(name.split(separator: " ").joined(separator: "."))
        let uncoveredFailures = (report.strictCoverage ? report.uncoveredContracts.count : 0) + report.deadLinks.count
        let tests = report.routes.count + report.uncoveredContracts.count + report.deadLinks.count
        let skipped = report.strictCoverage ? 0 : report.uncoveredContracts.count
        var xml = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="\#(suite)" tests="\#(tests)" failures="\#(report.failed + uncoveredFailures)" time="\#(seconds(report.seconds))">"#,
            #"  <testsuite name="\#(suite)" tests="\#(tests)" failures="\#(report.failed + uncoveredFailures)" errors="0" skipped="\#(skipped)" time="\#(seconds(report.seconds))">"#,
        ]
        for route in report.routes {
            let open = #"    <testcase classname="\#(classPrefix).routes" name="\#(escape(route.name))" time="\#(seconds(route.seconds))""#
            let unhandled = report.strictCoverage ? nil : unhandledSentence(route)
            let refused = report.strictVariants ? [] : route.variantFailures
            if route.failures.isEmpty && route.warnings.isEmpty && unhandled == nil && refused.isEmpty {
                xml.append(open + "/>")
                continue
            }
            xml.append(open + ">")
            for failure in route.failures {
                let summary = self.summary(of: failure)
                xml.append(#"      <failure type="\#(escape(failure.check.rawValue))" message="\#(escape(summary))">\#(escape(failure.message))</failure>"#)
            }
            let notes =
                (report.strictDrift ? [] : route.warnings.map { "drift: " + $0 }) + (unhandled.map { ["coverage: " + $0] } ?? [])
                + refused.map { "variants: \($0)" }
            if !notes.isEmpty {
                xml.append("      <system-out>\(escape(notes.joined(separator: "\n")))</system-out>")
            }
            xml.append("    </testcase>")
        }
        for contract in report.uncoveredContracts {
            let message = "no client route exercises contract \(contract)"
            let verdict = report.strictCoverage ? #"<failure type="coverage" message="\#(escape(message))"/>"# : #"<skipped message="\#(escape(message))"/>"#
            xml.append(#"    <testcase classname="\#(classPrefix).coverage" name="\#(escape(contract))">\#(verdict)</testcase>"#)
        }
        for link in report.deadLinks {
            xml.append(
                #"    <testcase classname="\#(classPrefix).links" name="\#(escape("\(link.source): \(link.jsonPath)"))"><failure type="link" message="\#(escape("\(link.url): \(link.reason)"))"/></testcase>"#
            )
        }
        xml += ["  </testsuite>", "</testsuites>"]
        return xml.joined(separator: "\n") + "\n"
    }

    /// A failure's one-line `message`: its `problem:` line, not the `sent:` request line that
    /// opens the block (a CI page that shows only the message must say what went wrong).
    static func summary(of failure: RouteResult.Failure) -> String {
        let lines = failure.message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if let problem = lines.first(where: { $0.hasPrefix("problem:") }) {
            return problem.dropFirst("problem:".count).trimmingCharacters(in: .whitespaces)
        }
        return lines.first { !$0.hasPrefix("sent:") && !$0.hasPrefix("contract:") } ?? failure.check.rawValue
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
