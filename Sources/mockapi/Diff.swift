import ArgumentParser
import Foundation
import MockAPICore
import MockAPIDiff
import MockAPIVerifyCommand

extension MockAPICommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two contract sets for the clients that use them; exit 1 when a change breaks them.",
            discussion: """
                OLD and NEW are folders: a project root holding contracts/ and fixtures/, or a contracts folder with \
                fixtures/ beside it. With --rev, OLD is --contracts and --fixtures as they were at that git revision \
                and NEW is the same folders now.
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
            }
        }

        func run() throws {
            let sides: (old: SetLocation, new: SetLocation)
            var checkout: GitCheckout?
            if let rev {
                let taken = try GitCheckout(revision: rev, contracts: contractOptions.contracts, fixtures: contractOptions.fixtures)
                checkout = taken
                sides = (
                    taken.location,
                    SetLocation(
                        contracts: contractOptions.contracts, fixtures: contractOptions.fixtures,
                        label: contractOptions.contracts)
                )
            } else {
                sides = (SetLocation(folder: old!), SetLocation(folder: new!))
            }
            defer { checkout?.remove() }
            let diff = ContractSetDiff(old: try sides.old.load(), new: try sides.new.load(), allow: allow)
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

    /// A project root holding contracts/ (and fixtures/), or a contracts folder with fixtures/ beside it.
    init(folder: String) {
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

/// The contract and fixture folders as they were at a git revision, unpacked into a temporary folder.
struct GitCheckout {
    let folder: URL
    let location: SetLocation

    init(revision: String, contracts: String, fixtures: String) throws {
        let contractsURL = URL(fileURLWithPath: contracts).standardizedFileURL
        guard let top = Self.git(["rev-parse", "--show-toplevel"], in: contractsURL.path).map({ URL(fileURLWithPath: $0) }) else {
            throw CommandFailure.unusable("\(contracts) is not inside a git repository (--rev needs one)", command: "diff")
        }
        func relative(_ path: String) -> String {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            let base = top.resolvingSymlinksInPath().path
            return absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
        }
        // The revision is resolved to a commit id first, and only the id reaches `git archive`:
        // text such as `--output=PATH` must never read as one of git's options.
        guard !revision.hasPrefix("-"),
            let commit = Self.git(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: top.path),
            commit.allSatisfy(\.isHexDigit), !commit.isEmpty
        else {
            throw CommandFailure.unusable("cannot read \(contracts) at revision \(revision): it is not a commit in \(top.path)", command: "diff")
        }
        let paths = [relative(contracts), relative(fixtures)]
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-diff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("old.tar").path
        guard Self.git(["archive", "--format=tar", "-o", archive, commit, "--"] + paths, in: top.path) != nil,
            Self.run("/usr/bin/env", ["tar", "-xf", archive, "-C", folder.path], in: top.path) != nil
        else {
            try? FileManager.default.removeItem(at: folder)
            throw CommandFailure.unusable("cannot read \(paths.joined(separator: " and ")) at revision \(revision) (git archive failed)", command: "diff")
        }
        location = SetLocation(
            contracts: folder.appendingPathComponent(paths[0]).path, fixtures: folder.appendingPathComponent(paths[1]).path,
            label: "\(contracts)@\(revision)")
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    private static func git(_ arguments: [String], in directory: String) -> String? {
        run("/usr/bin/env", ["git"] + arguments, in: directory)
    }

    /// The command's stdout without its last newline, or nil when it failed.
    private static func run(_ executable: String, _ arguments: [String], in directory: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}

extension String {
    fileprivate var trimmingTrailingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
