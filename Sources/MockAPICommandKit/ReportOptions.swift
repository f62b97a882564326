package import ArgumentParser
import Foundation
import MockAPICore
import SystemLibc

/// `--format` and `--junit`, shared by `verify` and `coverage`.
package struct ReportOptions: ParsableArguments {
    package enum Format: String, ExpressibleByArgument, CaseIterable, Sendable { case text, json }

    @Option(help: "Report format on stdout: text or json.")
    package var format = Format.text

    @Option(help: "Also write a JUnit XML report to this file (missing folders are created).")
    package var junit: String?

    package init() {}

    /// Whether the text report may use color (stdout is a terminal that wants it).
    package var color: Bool { TerminalColor.allowed(on: STDOUT_FILENO) }

    /// Why the command cannot run, to say on stderr, and with `--format json` also as
    /// `{"error": …}` on stdout, so a pipeline reading the report gets a document; exit 2.
    /// - Parameter stderr: the text for stderr when it is not `mockapi COMMAND: message` (a whole problem report).
    package func unusable(command: String, _ message: String, stderr: String? = nil) -> CommandFailure {
        unusable(program: "mockapi \(command)", message, stderr: stderr)
    }

    /// The same, for a program named in full (`mockapi verify`, a team's `contract-gate`).
    package func unusable(program: String, _ message: String, stderr: String? = nil) -> CommandFailure {
        .unusableAsSaid(
            stderr: stderr ?? "\(program): \(message)",
            stdout: format == .json ? JSONValue.object(["error": .string(message)]).prettySerialized : nil)
    }

    /// Prints the report in the chosen format and writes the JUnit file; exit 2 when it cannot.
    package func emit(command: String, text: () -> String, json: () -> String, junit junitXML: () -> String) throws {
        try emit(program: "mockapi \(command)", text: text, json: json, junit: junitXML)
    }

    /// The same, for a program named in full.
    package func emit(program: String, text: () -> String, json: () -> String, junit junitXML: () -> String) throws {
        switch format {
        case .text: Output.line(text())
        case .json: Output.line(json())
        }
        guard let junit else { return }
        let url = URL(fileURLWithPath: junit)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(junitXML().utf8).write(to: url)
        } catch {
            throw CommandFailure.unusableAsSaid(stderr: "\(program): cannot write \(junit): \(error.localizedDescription)")
        }
    }
}
