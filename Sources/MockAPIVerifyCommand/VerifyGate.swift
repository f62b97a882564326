import Foundation

/// Who a verify gate is and where its contract set lives: the name a team's gate executable
/// shows (in `USAGE:`, on the report's first line, as the JUnit suite, before its errors) and the
/// `--contracts` and `--fixtures` folders it uses when no flag or variable names them.
///
/// ```swift
/// VerifyGate(name: "contract-gate", packageFile: #filePath)   // contracts/ and fixtures/ at the gate's package root
/// ```
public struct VerifyGate: Sendable {
    /// The command name in `USAGE:` (a gate's executable name).
    package var commandName: String
    /// How reports and errors name it.
    package var displayName: String
    public var contracts: String
    public var fixtures: String

    public init(name: String, contracts: String = "contracts", fixtures: String = "fixtures") {
        self.init(commandName: name, displayName: name, contracts: contracts, fixtures: fixtures)
    }

    /// Contracts and fixtures found from a source file of the gate's package: `contracts/` and
    /// `fixtures/` in the folder that holds `Package.swift`, whatever the working directory.
    public init(name: String, packageFile: String, contracts: String = "contracts", fixtures: String = "fixtures") {
        let root = Self.packageRoot(of: URL(fileURLWithPath: packageFile))
        self.init(name: name, contracts: root.appendingPathComponent(contracts).path, fixtures: root.appendingPathComponent(fixtures).path)
    }

    init(commandName: String, displayName: String, contracts: String, fixtures: String) {
        self.commandName = commandName
        self.displayName = displayName
        self.contracts = contracts
        self.fixtures = fixtures
    }

    /// `mockapi verify`, relative to the working directory.
    public static let mockapi = VerifyGate(commandName: "verify", displayName: "mockapi verify", contracts: "contracts", fixtures: "fixtures")

    /// The nearest folder above `file` that holds a `Package.swift` (the file's own folder if none does).
    static func packageRoot(of file: URL) -> URL {
        var folder = file.deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return file.deletingLastPathComponent()
    }
}
