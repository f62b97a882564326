package import Foundation
import MockAPICore

/// The contract and fixture folders as they were at a git revision, unpacked into a temporary folder.
package struct GitCheckout {
    /// Why a revision cannot be read, said for a person.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The temporary folder; `remove()` deletes it.
    package let folder: URL
    /// The contract and fixture folders inside it.
    package let contracts: String
    package let fixtures: String

    package init(revision: String, contracts: String, fixtures: String) throws(Failure) {
        let contractsURL = URL(fileURLWithPath: contracts).standardizedFileURL
        guard let top = Self.git(["rev-parse", "--show-toplevel"], in: contractsURL.path).map({ URL(fileURLWithPath: $0) }) else {
            throw Failure(description: "\(contracts) is not inside a git repository (--rev needs one)")
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
            throw Failure(description: "cannot read \(contracts) at revision \(revision): it is not a commit in \(top.path)")
        }
        let paths = [relative(contracts), relative(fixtures)]
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-diff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("old.tar").path
        guard Self.git(["archive", "--format=tar", "-o", archive, commit, "--"] + paths, in: top.path) != nil,
            Self.run("/usr/bin/env", ["tar", "-xf", archive, "-C", folder.path], in: top.path) != nil
        else {
            try? FileManager.default.removeItem(at: folder)
            throw Failure(description: "cannot read \(paths.joined(separator: " and ")) at revision \(revision) (git archive failed)")
        }
        self.contracts = folder.appendingPathComponent(paths[0]).path
        self.fixtures = folder.appendingPathComponent(paths[1]).path
    }

    package func remove() { try? FileManager.default.removeItem(at: folder) }

    private static func git(_ arguments: [String], in directory: String) -> String? {
        run("/usr/bin/env", ["git"] + arguments, in: directory)
    }

    /// The command's stdout without its last newline, or nil when it failed.
    private static func run(_ executable: String, _ arguments: [String], in directory: String) -> String? {
        let process = ChildProcess()
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
