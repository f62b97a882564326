import Foundation

/// Why a route's unhandled responses matter, or nil when it handles them all.
func unhandledSentence(_ route: RouteResult) -> String? {
    guard !route.unhandledResponses.isEmpty else { return nil }
    let names = route.unhandledResponses.map { "\"\($0)\"" }.joined(separator: ", ")
    let plural = route.unhandledResponses.count > 1
    return "route \(route.name) declares no decoder for \(plural ? "responses" : "response") \(names) of contract \"\(route.contract)\", "
        + "so \(plural ? "they are" : "it is") not checked: add \(plural ? "them" : "it") to the route's responses"
}

/// The human report: one line per passing route, one block per failing one, a summary last.
public enum TextReport {
    /// - Parameter name: the command that ran, first on the first line (a team's gate gives its own).
    public static func render(_ report: VerifyReport, color: Bool = false, name: String = "mockapi verify") -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var lines = ["\(name): \(report.routes.count) route\(report.routes.count == 1 ? "" : "s") against \(report.target)", ""]
        let width = report.routes.map(\.name.count).max() ?? 0
        for route in report.routes {
            let request = route.request.map { "\($0.method) \(pathAndQuery($0.url))" } ?? ""
            let label = route.outcome == .pass ? paint("PASS", "32") : paint("FAIL", "31")
            lines.append("\(label)  \(route.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(request)")
            for failure in route.failures {
                lines.append("      [\(failure.check.rawValue)]")
                lines += failure.message.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            }
            if !report.strictCoverage, let unhandled = unhandledSentence(route) {
                lines.append("      " + paint("warning", "33") + " [coverage] " + unhandled)
            }
            for warning in route.warnings where !report.strictDrift {
                lines.append("      " + paint("warning", "33") + " [drift] " + warning)
            }
            for failure in route.variantFailures where !report.strictVariants {
                lines.append("      " + paint("warning", "33") + " [variants] " + failure.description)
            }
        }
        if !report.uncoveredContracts.isEmpty {
            lines.append("")
            let label = report.strictCoverage ? paint("FAIL", "31") : paint("warning", "33")
            lines.append("\(label)  contracts no client route exercises: \(report.uncoveredContracts.joined(separator: ", "))")
        }
        if !report.deadLinks.isEmpty {
            lines.append("")
            lines.append("\(paint("FAIL", "31"))  \(report.deadLinks.count) dead link\(report.deadLinks.count == 1 ? "" : "s") in the responses:")
            lines += report.deadLinks.map { "      \($0.description)" }
        }
        for note in report.notes {
            lines.append("")
            lines.append(paint("note", "33") + "  " + note)
        }
        let warnings = report.routes.reduce(0) { $0 + $1.warnings.count }
        let variants = report.routes.reduce(0) { $0 + $1.variantsChecked }
        let refused = report.routes.reduce(0) { $0 + $1.variantFailures.count }
        let crashed = report.routes.reduce(0) { $0 + $1.variantFailures.filter { $0.crash != nil }.count }
        lines.append("")
        lines.append(
            "\(report.routes.count) routes: \(report.passed) passed, \(report.failed) failed"
                + (report.strictDrift ? "" : ", \(warnings) drift warning\(warnings == 1 ? "" : "s")")
                + "; \(report.uncoveredContracts.count) uncovered contract\(report.uncoveredContracts.count == 1 ? "" : "s")"
                + (report.deadLinks.isEmpty ? "" : "; \(report.deadLinks.count) dead link\(report.deadLinks.count == 1 ? "" : "s")")
                + (report.variants ? "; \(variants) variant\(variants == 1 ? "" : "s"), \(refused) refused" + (crashed > 0 ? " (\(crashed) crashed the decoder)" : "") : "")
                + " (\(String(format: "%.2f", report.seconds)) s)")
        return lines.joined(separator: "\n")
    }

    /// `http://127.0.0.1:8080/v1/x?a=1` → `/v1/x?a=1`: the host is already in the header line.
    private static func pathAndQuery(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else { return url }
        return String(url[slash...])
    }
}
