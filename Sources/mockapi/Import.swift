import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPIImport

extension MockAPICommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Write contracts and fixtures from an OpenAPI document or a HAR capture.",
            subcommands: [ImportOpenAPI.self, ImportHAR.self]
        )
    }

    struct ImportOpenAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openapi",
            abstract: "One contract per operation of an OpenAPI 3.0/3.1 document (JSON or YAML)."
        )

        @OptionGroup var options: ImportOptions

        @Option(
            help: ArgumentHelp(
                "Folder the document's $ref files may be in (default: the document's own folder; others are left out with a warning).",
                valueName: "folder"))
        var refRoot: String?

        func run() throws {
            let progress = ProgressLine()
            let importer = OpenAPIImporter(referenceRoot: refRoot.map { URL(fileURLWithPath: $0) }) {
                progress.show($0.line, now: $0.phase != .translating || $0.operations == 1)
            }
            try options.run(kind: "openapi", unit: "operation", progress: progress) { url throws(ImportError) in try importer.importFile(url) }
        }
    }

    struct ImportHAR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "One contract per method and path template of a recorded session (HAR 1.2)."
        )

        @OptionGroup var options: ImportOptions
        @OptionGroup var redaction: RedactKeyOptions

        func run() throws {
            let importer = HARImporter(credentials: redaction.credentials)
            try options.run(kind: "har", unit: "entry") { url throws(ImportError) in try importer.importFile(url) }
        }
    }
}

/// The input file, `--out` and `--force`, and the shared run: warnings on stderr, one summary line on stdout.
struct ImportOptions: ParsableArguments {
    @Argument(help: "The file to import.")
    var file: String

    @Option(help: "Folder to write contracts/ and fixtures/ into (created if missing).")
    var out: String

    @Flag(help: "Replace existing contracts/ and fixtures/ folders under --out.")
    var force = false

    /// - Parameter progress: the terminal's progress line, cleared before the warnings are said.
    func run(kind: String, unit: String, progress: ProgressLine? = nil, _ importer: (URL) throws(ImportError) -> ImportedSet) throws {
        defer { progress?.clear() }
        do throws(ImportError) {
            let set = try importer(URL(fileURLWithPath: file))
            progress?.clear()
            for warning in set.warnings { Output.error("warning: \(warning)") }
            guard !set.contracts.isEmpty else { throw ImportError("\(file): nothing to import (no \(unit) could become a contract)") }
            progress?.show(ImportProgress(file: file, phase: .writing, operations: set.contracts.count).line, now: true)
            try ContractWriter(output: URL(fileURLWithPath: out), replace: force).write(set)
            progress?.clear()
            let skipped = set.skipped == 0 ? "" : "; \(set.skipped) \(unit == "entry" ? (set.skipped == 1 ? "entry" : "entries") : (set.skipped == 1 ? unit : unit + "s")) skipped"
            Output.line("mockapi import \(kind): \(set.contracts.count) contracts, \(set.responseCount) responses, \(set.fixtures.count) fixtures written to \(out)\(skipped)")
        } catch {
            throw CommandFailure.unusable(error.description, command: "import \(kind)")
        }
    }
}
