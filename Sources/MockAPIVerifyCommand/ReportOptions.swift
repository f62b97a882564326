package import ArgumentParser
import Foundation
import MockAPICore

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

    /// Says why the command cannot run, on stderr, and with `--format json` also as
    /// `{"error": …}` on stdout, so a pipeline reading the report gets a document; exit 2.
    /// - Parameter stderr: the text for stderr when it is not `mockapi COMMAND: message` (a whole problem report).
    package func unusable(command: String, _ message: String, stderr: String? = nil) -> ExitCode {
        unusable(program: "mockapi \(command)", message, stderr: stderr)
    }

    /// The same, for a program named in full (`mockapi verify`, a team's `contract-gate`).
    package func unusable(program: String, _ message: String, stderr: String? = nil) -> ExitCode {
        Output.error(stderr ?? "\(program): \(message)")
        if format == .json { Output.line(JSONValue.object(["error": .string(message)]).prettySerialized) }
        return ExitCode(2)
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
            Output.error("\(program): cannot write \(junit): \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}

/// The one color policy of every command, for stdout and stderr alike: color only on a terminal,
/// never with `NO_COLOR` set to anything but the empty string (https://no-color.org) or with
/// `TERM=dumb`, so pipes, files and CI logs stay plain.
package enum TerminalColor {
    package static func allowed(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(descriptor) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}

/// `--admin-token`, for a server started with one.
package struct AdminTokenOption: ParsableArguments {
    @Option(help: "The server's --admin-token (sent as Mockapi-Admin-Token to its /__mockapi/ endpoints).")
    package var adminToken: String?

    package init() {}
}

/// `--base-url` read as an http(s) URL, or exit 2 naming it.
func serverURL(_ text: String, command: String, reportOptions: ReportOptions? = nil) throws -> URL {
    try serverURL(text, program: "mockapi \(command)", reportOptions: reportOptions)
}

/// The same, for a program named in full.
func serverURL(_ text: String, program: String, reportOptions: ReportOptions? = nil) throws -> URL {
    guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
        let message = "--base-url \"\(text)\" is not an http(s) URL"
        guard let reportOptions else {
            Output.error("\(program): \(message)")
            throw ExitCode(2)
        }
        throw reportOptions.unusable(program: program, message)
    }
    return url
}
