import Foundation
import MockAPICore

@testable import MockAPIImport

/// The real-shaped inputs under Resources/ and a scratch folder per test.
enum ImportFixtures {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources")
    static let petstore = resources.appendingPathComponent("petstore.yaml")
    static let mobileAPI = resources.appendingPathComponent("mobile-api.json")
    static let session = resources.appendingPathComponent("mobile-session.har")
}

/// A temporary folder removed when released.
final class ScratchFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-import-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    var contracts: URL { url.appendingPathComponent("contracts") }
    var fixtures: URL { url.appendingPathComponent("fixtures") }

    /// Writes the set here and loads it back, as `mockapi lint` would.
    func writeAndLoad(_ set: ImportedSet) throws -> ContractSet {
        try ContractWriter(output: url).write(set)
        return try ContractSet.load(contracts: contracts, fixtures: fixtures)
    }

    func text(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension ContractSet {
    func contract(_ name: String) -> Contract? { contracts.first { $0.name == name } }
}
