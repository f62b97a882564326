package import ArgumentParser
import Foundation
package import MockAPICommandKit
import MockAPICore
import MockAPIVerify

/// `mockapi coverage`: the contract gate for any client, in any language. Run the client's own
/// tests against `mockapi serve`, then this: it fails when any request matched no contract or
/// broke its contract, and lists the contracts no request exercised.
package struct CoverageCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Read a running server's journal: fail on requests that matched no contract or broke one.",
        discussion: "Exit status: 0 when every journaled request kept a contract, 1 otherwise (also when no request "
            + "reached the server, or, with --strict, when a contract was never exercised), 2 when a server cannot be read."
    )

    @OptionGroup package var reportOptions: ReportOptions

    @Option(help: "A running `mockapi serve` whose journal to read; repeat it to read several instances (behind a balancer) as one report.")
    package var baseURL: [String]

    @Option(
        help: ArgumentHelp(
            "Read this session's journal instead of the server-wide one, from whichever --base-url has it (repeatable).", valueName: "id"))
    package var session: [String] = []

    @Flag(help: "Read every live session's journal as well as the server-wide one.")
    package var allSessions = false

    @OptionGroup package var admin: AdminTokenOption

    @Option(parsing: .unconditional, help: "Only requests after this journal id (a run that started mid-journal).")
    package var since = 0

    @Flag(help: "Also fail when a contract was never exercised.")
    package var strict = false

    package init() {}

    package func validate() throws {
        guard since >= 0 else { throw ValidationError("--since \(since) is out of range: a journal id, 0 or more") }
        if let malformed = session.first(where: { SessionID.value($0) == nil }) {
            throw ValidationError("--session \"\(malformed)\" is not a session id: 16 lowercase hex digits, as POST /__mockapi/sessions gives them")
        }
        guard session.isEmpty || !allSessions else { throw ValidationError("--session and --all-sessions: give one (--all-sessions reads every session)") }
        guard since == 0 || (baseURL.count == 1 && session.count <= 1 && !allSessions) else {
            throw ValidationError("--since is a journal id of one journal: give it with one --base-url, at most one --session and no --all-sessions")
        }
    }

    private var sessions: JournalCoverage.Sessions {
        allSessions ? .all : session.isEmpty ? .none : .only(session)
    }

    package func run() async throws {
        var urls: [URL] = []
        for text in baseURL { urls.append(try reportOptions.serverURL(text, command: "coverage")) }
        let report: CoverageReport
        do {
            report = try await JournalCoverage.read(from: urls, sessions: sessions, since: since, strict: strict, adminToken: admin.adminToken)
        } catch let unreadable as JournalCoverage.Unreadable {
            let why = ServerUnreachable.reason(unreadable.underlying) ?? "\(unreadable.underlying)"
            throw reportOptions.unusable(command: "coverage", "cannot read the journal at \(unreadable.url.absoluteString): \(why)")
        } catch {
            throw reportOptions.unusable(command: "coverage", "\(error)")
        }
        try reportOptions.emit(
            command: "coverage", text: { TextCoverageReport.render(report) },
            json: { JSONCoverageReport.render(report) }, junit: { JUnitCoverageReport.render(report) })
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
