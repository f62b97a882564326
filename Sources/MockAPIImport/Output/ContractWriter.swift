package import Foundation
import MockAPICore

#if canImport(Glibc)
import Glibc
private let posixWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let posixWrite = Darwin.write
#endif

/// Writes an imported set as `contracts/` and `fixtures/` under a folder, all or nothing.
///
/// Files go to a staging folder beside the target first and are loaded back with
/// `ContractSet.load` (what `mockapi lint` does); only a set that loads is moved into place,
/// so a failure never leaves half a set behind.
package struct ContractWriter {
    package var output: URL
    /// Replace existing `contracts/` and `fixtures/` folders instead of refusing.
    package var replace: Bool

    package init(output: URL, replace: Bool = false) {
        self.output = output
        self.replace = replace
    }

    package func write(_ set: ImportedSet) throws(ImportError) {
        let files = FileManager.default
        let contracts = output.appendingPathComponent("contracts"), fixtures = output.appendingPathComponent("fixtures")
        if !replace {
            for folder in [contracts, fixtures] where !((try? files.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true) {
                throw ImportError("\(folder.path) already exists and is not empty; choose another --out or pass --force to replace it")
            }
        }
        let staging = output.appendingPathComponent(".mockapi-import-\(UUID().uuidString)")
        defer { try? files.removeItem(at: staging) }
        do {
            var folders: Set<String> = []
            try files.createDirectory(at: staging.appendingPathComponent("contracts"), withIntermediateDirectories: true)
            for contract in set.contracts {
                try Self.writeFile(
                    Array((contract.file.fileJSON.prettySerialized + "\n").utf8),
                    to: staging.appendingPathComponent("contracts/\(contract.relativePath)"), folders: &folders)
            }
            if let defaults = set.defaults?.fileJSON {
                try Self.writeFile(
                    Array((defaults.prettySerialized + "\n").utf8),
                    to: staging.appendingPathComponent("contracts/\(SetDefaults.fileName)"), folders: &folders)
            }
            try files.createDirectory(at: staging.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
            for fixture in set.fixtures {
                try Self.writeFile(fixture.bytes, to: staging.appendingPathComponent("fixtures/\(fixture.path)"), folders: &folders)
            }
        } catch {
            throw ImportError("cannot write under \(output.path): \(error.localizedDescription)")
        }
        do {
            _ = try ContractSet.load(contracts: staging.appendingPathComponent("contracts"), fixtures: staging.appendingPathComponent("fixtures"))
        } catch {
            throw ImportError("the imported set does not load, nothing was written (please report this):\n\(error.description)")
        }
        do {
            for (folder, name) in [(contracts, "contracts"), (fixtures, "fixtures")] {
                if files.fileExists(atPath: folder.path) { try files.removeItem(at: folder) }
                try files.moveItem(at: staging.appendingPathComponent(name), to: folder)
            }
        } catch {
            throw ImportError("cannot move the imported set into \(output.path): \(error.localizedDescription)")
        }
    }

    /// Creates each folder once, and writes with plain POSIX calls: Foundation's `Data.write`
    /// syncs every file to disk, which made writing 100,000 fixtures take minutes. The staged set
    /// is loaded back before it is moved into place, so a short write cannot go unnoticed.
    private static func writeFile(_ bytes: [UInt8], to url: URL, folders: inout Set<String>) throws {
        let folder = url.deletingLastPathComponent()
        if folders.insert(folder.path).inserted {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteFailure(path: url.path, code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw WriteFailure(path: url.path, code: errno) }
            written += count
        }
    }

    private struct WriteFailure: LocalizedError {
        var path: String
        var code: Int32
        var errorDescription: String? { "\(path): \(String(cString: strerror(code)))" }
    }
}
