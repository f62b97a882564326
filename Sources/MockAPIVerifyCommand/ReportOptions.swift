import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format` and `--junit`, shared by `verify` and `coverage`.
public struct ReportOptions: ParsableArguments {
    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable { case text, json }

    @Option(help: "Report format on stdout: text or json.")
    public var format = Format.text

    @Option(help: "Also write a JUnit XML report to this file (missing folders are created).")
    public var junit: String?

    public init() {}

    /// Whether the text report may use color (stdout is a terminal).
    public var color: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Prints the report in the chosen format and writes the JUnit file; exit 2 when it cannot.
    public func emit(command: String, text: () -> String, json: () -> String, junit junitXML: () -> String) throws {
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
            Output.error("mockapi \(command): cannot write \(junit): \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}

/// `--admin-token`, for a server started with one.
public struct AdminTokenOption: ParsableArguments {
    @Option(help: "The server's --admin-token (sent as Mockapi-Admin-Token to its /__mockapi/ endpoints).")
    public var adminToken: String?

    public init() {}
}

/// `--base-url` read as an http(s) URL, or exit 2 naming it.
func serverURL(_ text: String, command: String) throws -> URL {
    guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
        Output.error("mockapi \(command): --base-url \"\(text)\" is not an http(s) URL")
        throw ExitCode(2)
    }
    return url
}
