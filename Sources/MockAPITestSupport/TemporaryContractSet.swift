public import Foundation

/// A contract set written to a fresh temporary folder for one test, removed when released.
///
/// ```swift
/// let set = try TemporaryContractSet(contracts: ["ping.json": #"{"name": "ping", …}"#],
///                                    fixtures: ["pong.json": #"{"ok": true}"#])
/// try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { … }
/// ```
public final class TemporaryContractSet: Sendable {
    public let root: URL
    public let contracts: URL
    public let fixtures: URL

    /// Keys are paths relative to `contracts/` and `fixtures/`; folders are created as needed.
    public init(contracts: [String: String], fixtures: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-\(UUID().uuidString)")
        self.contracts = root.appendingPathComponent("contracts")
        self.fixtures = root.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: self.contracts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: self.fixtures, withIntermediateDirectories: true)
        try Self.write(contracts, under: self.contracts)
        try Self.write(fixtures, under: self.fixtures)
    }

    /// A copy of a whole folder pair (e.g. the bundled API), for tests that change one thing in it.
    public init(copying contractsSource: URL, fixtures fixturesSource: URL) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-\(UUID().uuidString)")
        contracts = root.appendingPathComponent("contracts")
        fixtures = root.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: contractsSource, to: contracts)
        try FileManager.default.copyItem(at: fixturesSource, to: fixtures)
    }

    /// Writes (or overwrites) one file, relative to the set's root: `contracts/x.json`, `fixtures/y.json`.
    package func write(_ text: String, to relativePath: String) throws {
        try Self.write([relativePath: text], under: root)
    }

    private static func write(_ files: [String: String], under folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
