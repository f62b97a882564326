import Foundation
import MockAPICore

/// `verify-backend` as text, JSON and JUnit XML, in `verify`'s shapes.
package enum BackendReportRendering {
    package static func text(_ report: BackendReport) -> String {
        var lines: [String] = []
        for result in report.results {
            let verdict =
                switch result.outcome {
                case .passed: "PASS";
                case .failed: "FAIL";
                case .skipped: "SKIP"
                case .notReached: "NOT REACHED"
                }
            lines.append("\(verdict) \(result.contract)  \(result.request)\(result.status.map { " → \($0)" } ?? "")")
            lines += result.failures.map { "    \($0)" }
            lines += result.notes.map { "    note: \($0)" }
        }
        lines.append(
            "mockapi verify-backend: \(report.results.count) contracts against \(report.baseURL): "
                + "\(report.passed) passed, \(report.failed) failed, "
                + (report.notReached == 0 ? "" : "\(report.notReached) not reached, ") + "\(report.skipped) skipped")
        return lines.joined(separator: "\n")
    }

    package static func json(_ report: BackendReport) -> String {
        let results: [JSONValue] = report.results.map { result in
            .object(
                JSONObject([
                    ("contract", .string(result.contract)), ("request", .string(result.request)), ("outcome", .string(result.outcome.rawValue)),
                    ("status", result.status.map { .int($0) } ?? .null), ("failures", .array(result.failures.map { .string($0) })),
                    ("notes", .array(result.notes.map { .string($0) })), ("seconds", .double(result.seconds)),
                ]))
        }
        return JSONValue.object(
            JSONObject([
                ("baseURL", .string(report.baseURL)), ("passed", .int(report.passed)), ("failed", .int(report.failed)),
                ("notReached", .int(report.notReached)), ("skipped", .int(report.skipped)), ("results", .array(results)),
            ])
        ).prettySerialized
    }

    package static func junit(_ report: BackendReport) -> String {
        let seconds = String(format: "%.3f", report.seconds)
        // Not reached is a failure to CI: its success answer went unchecked.
        let failures = report.failed + report.notReached
        var xml = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="mockapi verify-backend" tests="\#(report.results.count)" failures="\#(failures)" time="\#(seconds)">"#,
            #"  <testsuite name="mockapi verify-backend" tests="\#(report.results.count)" failures="\#(failures)" errors="0" skipped="\#(report.skipped)" time="\#(seconds)">"#,
        ]
        for result in report.results {
            let open = #"    <testcase classname="mockapi.verify-backend" name="\#(XMLText.escape(result.contract))" time="\#(String(format: "%.3f", result.seconds))">"#
            xml.append(open)
            switch result.outcome {
            case .passed: break
            case .skipped: xml.append(#"      <skipped message="\#(XMLText.escape(result.notes.first ?? "skipped"))"/>"#)
            case .failed, .notReached:
                let type = result.outcome == .notReached ? "not-reached" : "backend"
                for failure in result.failures {
                    xml.append(#"      <failure type="\#(type)" message="\#(XMLText.escape(failure))">\#(XMLText.escape(result.request))</failure>"#)
                }
            }
            if !result.notes.isEmpty, result.outcome != .skipped {
                xml.append("      <system-out>\(XMLText.escape(result.notes.joined(separator: "\n")))</system-out>")
            }
            xml.append("    </testcase>")
        }
        xml += ["  </testsuite>", "</testsuites>"]
        return xml.joined(separator: "\n") + "\n"
    }
}
