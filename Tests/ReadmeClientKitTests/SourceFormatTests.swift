import Foundation
import MockAPITestSupport
import Testing

/// The formatter `.swift-format` was measured with; another minor version breaks some lines
/// differently, so the check runs only with this one.
private let formatterVersion = "6.3"

private let installedFormatter: String? = try? ExternalTool.run(["swift", "format", "--version"]).stdout
    .trimmingCharacters(in: .whitespacesAndNewlines)

/// Sources, tests and the manifest keep the format `.swift-format` describes. A finding is fixed with
/// `swift format --in-place --parallel --recursive Sources Tests Package.swift`.
@Test(.enabled(if: installedFormatter?.hasPrefix(formatterVersion + ".") == true, "needs swift format \(formatterVersion)"))
func sourcesKeepTheCheckedInFormat() throws {
    let run = try ExternalTool.run(
        ["swift", "format", "lint", "--strict", "--parallel", "--recursive", "Sources", "Tests", "Package.swift"],
        directory: BundledAPI.root)
    let findings = run.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
    #expect(run.status == 0 && findings.isEmpty, "\(findings.count) findings:\n\(findings.prefix(20).joined(separator: "\n"))")
}
