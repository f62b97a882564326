import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIDiff

extension MockAPICommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare two contract sets for the clients that use them; exit 1 when a change breaks them.",
            discussion: """
                OLD and NEW are folders: a project root holding contracts/ and fixtures/, or a contracts folder with \
                fixtures/ beside it. With --rev, OLD is --contracts and --fixtures as they were at that git revision \
                and NEW is the same folders now. OLD and NEW may also be two OpenAPI documents (JSON or YAML), \
                imported as serve --openapi does and compared by the statuses they declare.
                """
        )

        @Argument(help: "The contract set clients were built against.")
        var old: String?

        @Argument(help: "The changed set.")
        var new: String?

        @Option(help: "Compare --contracts/--fixtures at this git revision (a branch, tag or commit) with the working tree.")
        var rev: String?

        @OptionGroup var contractOptions: ContractOptions

        @Option(
            help: ArgumentHelp(
                "Accept a breaking change: a contract name, or CONTRACT:LOCATION as the report names it (repeatable).",
                valueName: "id"))
        var allow: [String] = []

        @OptionGroup var report: ReportOptions

        func validate() throws {
            try CommandFailure.translating {
                if rev != nil, old != nil { throw CommandFailure.usage("give OLD and NEW folders, or --rev, not both") }
                if rev == nil, old == nil || new == nil { throw CommandFailure.usage("give OLD and NEW folders, or --rev REVISION") }
                if let old, let new, ImportedDocument.isDocument(old) != ImportedDocument.isDocument(new) {
                    throw CommandFailure.usage("give two folders or two OpenAPI documents, not one of each")
                }
            }
        }

        func run() throws {
            let sides: (old: SetLocation, new: SetLocation)
            var checkout: GitCheckout?
            if let rev {
                let taken: GitCheckout
                do {
                    taken = try GitCheckout(revision: rev, contracts: contractOptions.contracts, fixtures: contractOptions.fixtures)
                } catch {
                    throw CommandFailure.unusable(error.description, command: "diff")
                }
                checkout = taken
                sides = (
                    SetLocation(contracts: taken.contracts, fixtures: taken.fixtures, label: "\(contractOptions.contracts)@\(rev)"),
                    SetLocation(
                        contracts: contractOptions.contracts, fixtures: contractOptions.fixtures,
                        label: contractOptions.contracts)
                )
            } else {
                sides = (SetLocation(folder: old!), SetLocation(folder: new!))
            }
            defer { checkout?.remove() }
            let diff =
                sides.old.isDocument && sides.new.isDocument
                ? ContractSetDiff(old: try sides.old.loadDocument(), new: try sides.new.loadDocument(), allow: allow)
                : ContractSetDiff(old: try sides.old.load(), new: try sides.new.load(), allow: allow)
            if !diff.unusedRules.isEmpty {
                throw report.unusable(command: "diff", Self.unusedRulesSentence(diff))
            }
            try report.emit(
                command: "diff", text: { DiffReport.text(diff, old: sides.old.label, new: sides.new.label).trimmingTrailingNewline },
                json: { DiffReport.json(diff, old: sides.old.label, new: sides.new.label).trimmingTrailingNewline },
                junit: { DiffReport.junit(diff) })
            if diff.exitCode != 0 { throw ExitCode(diff.exitCode) }
        }
    }
}

extension MockAPICommand.Diff {
    /// Why `--allow` values are refused, with the ids they could have named (the first 20).
    static func unusedRulesSentence(_ diff: ContractSetDiff) -> String {
        let rules = diff.unusedRules.map { "--allow \($0)" }.joined(separator: ", ")
        let ids = diff.changes.filter { $0.impact == .breaking }.map(\.id)
        let known =
            ids.isEmpty
            ? "there is no breaking change to allow"
            : "the breaking changes are: \(ids.prefix(20).joined(separator: ", "))\(ids.count > 20 ? ", and \(ids.count - 20) more" : "")"
                + " (a contract name allows all of its changes)"
        return "\(rules) accept\(diff.unusedRules.count == 1 ? "s" : "") no breaking change; \(known)"
    }
}

/// Where one side of a diff is read from.
struct SetLocation {
    var contracts: String
    var fixtures: String
    var label: String

    init(contracts: String, fixtures: String, label: String) {
        self.contracts = contracts
        self.fixtures = fixtures
        self.label = label
    }

    /// An OpenAPI document rather than a folder: imported when loaded.
    var isDocument = false

    /// A project root holding contracts/ (and fixtures/), a contracts folder with fixtures/ beside
    /// it, or an OpenAPI document.
    init(folder: String) {
        if ImportedDocument.isDocument(folder) {
            self.init(contracts: folder, fixtures: folder, label: folder)
            isDocument = true
            return
        }
        let root = URL(fileURLWithPath: folder)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("contracts").path, isDirectory: &isFolder), isFolder.boolValue {
            self.init(contracts: root.appendingPathComponent("contracts").path, fixtures: root.appendingPathComponent("fixtures").path, label: folder)
        } else {
            self.init(contracts: root.path, fixtures: root.deletingLastPathComponent().appendingPathComponent("fixtures").path, label: folder)
        }
    }

    /// The loaded set, or its problems on stderr and exit 2.
    func load() throws -> ContractSet {
        do {
            return try ContractSet.load(contracts: URL(fileURLWithPath: contracts), fixtures: URL(fileURLWithPath: fixtures))
        } catch {
            throw CommandFailure.unusable("\(label): \(error.description)", command: "diff")
        }
    }
}

extension SetLocation {
    /// The imported document, or why it does not import on stderr and exit 2.
    func loadDocument() throws -> ImportedDocument.Loaded {
        do {
            return try ImportedDocument.load(contracts)
        } catch {
            throw CommandFailure.unusable("\(label): \(error.description)", command: "diff")
        }
    }
}

extension String {
    fileprivate var trimmingTrailingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
