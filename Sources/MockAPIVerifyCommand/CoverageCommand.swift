package import ArgumentParser
import Foundation
package import MockAPICommandKit
import MockAPIVerify

/// `mockapi coverage`: the contract gate for any client, in any language. Run the client's own
/// tests against `mockapi serve`, then this: it fails when any request matched no contract or
/// broke its contract, and lists the contracts no request exercised.
package struct CoverageCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Read a running server's journal: fail on requests that matched no contract or broke one.",
        discussion: "Exit status: 0 when every journaled request kept a contract, 1 otherwise (also when no request "
            + "reached the server, or, with --strict, when a contract was never exercised), 2 when the server cannot be read."
    )

    @OptionGroup package var reportOptions: ReportOptions

    @Option(help: "The running `mockapi serve` whose journal to read.")
    package var baseURL: String

    @OptionGroup package var admin: AdminTokenOption

    @Option(parsing: .unconditional, help: "Only requests after this journal id (a run that started mid-journal).")
    package var since = 0

    @Flag(help: "Also fail when a contract was never exercised.")
    package var strict = false

    package init() {}

    package func validate() throws {
        guard since >= 0 else { throw ValidationError("--since \(since) is out of range: a journal id, 0 or more") }
    }

    package func run() async throws {
        let url = try reportOptions.serverURL(baseURL, command: "coverage")
        let report: CoverageReport
        do {
            report = try await JournalCoverage.read(from: url, since: since, strict: strict, adminToken: admin.adminToken)
        } catch {
            let why = ServerUnreachable.reason(error) ?? "\(error)"
            throw reportOptions.unusable(command: "coverage", "cannot read the journal at \(baseURL): \(why)")
        }
        try reportOptions.emit(
            command: "coverage", text: { TextCoverageReport.render(report) },
            json: { JSONCoverageReport.render(report) }, junit: { JUnitCoverageReport.render(report) })
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
