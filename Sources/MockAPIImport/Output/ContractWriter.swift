import Foundation
import MockAPICore

/// Writes an imported set as `contracts/` and `fixtures/` under a folder, all or nothing.
///
/// Files go to a staging folder beside the target first and are loaded back with
/// `ContractSet.load` (what `mockapi lint` does); only a set that loads is moved into place,
/// so a failure never leaves half a set behind.
public struct ContractWriter {
    public var output: URL
    /// Replace existing `contracts/` and `fixtures/` folders instead of refusing.
    public var replace: Bool

    public init(output: URL, replace: Bool = false) {
        self.output = output
        self.replace = replace
    }

    public func write(_ set: ImportedSet) throws(ImportError) {
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
            try files.createDirectory(at: staging.appendingPathComponent("contracts"), withIntermediateDirectories: true)
            try files.createDirectory(at: staging.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
            for contract in set.contracts {
                try Self.write(Array((contract.contractJSON.prettySerialized + "\n").utf8),
                               to: staging.appendingPathComponent("contracts/\(contract.folder)/\(contract.name).json"))
            }
            for fixture in set.fixtures {
                try Self.write(fixture.bytes, to: staging.appendingPathComponent("fixtures/\(fixture.path)"))
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

    private static func write(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
}
