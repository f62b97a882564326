import Foundation

/// Who a verify gate is and where its contract set lives: the name a team's gate executable
/// shows (in `USAGE:`, on the report's first line, as the JUnit suite, before its errors), the
/// `--contracts` and `--fixtures` folders it uses when no flag or variable names them, and, for
/// a client of part of a shared API, the contracts the app answers for.
///
/// ```swift
/// VerifyGate(name: "contract-gate", packageFile: #filePath)   // contracts/ and fixtures/ at the gate's package root
/// VerifyGate(name: "contract-gate", packageFile: #filePath, answersFor: ["project", "backing"])
/// ```
public struct VerifyGate: Sendable {
    /// The command name in `USAGE:` (a gate's executable name).
    package var commandName: String
    /// How reports and errors name it.
    package var displayName: String
    public var contracts: String
    public var fixtures: String
    /// The contracts the app answers for, when it is a client of part of a shared API: what
    /// `--scope all` (the default) means for this gate, so `--strict` fails on each of them no
    /// route claims, a route the client never calls among them. Nil: every contract in the folder.
    public var answersFor: [String]?

    public init(name: String, contracts: String = "contracts", fixtures: String = "fixtures", answersFor: [String]? = nil) {
        self.init(commandName: name, displayName: name, contracts: contracts, fixtures: fixtures, answersFor: answersFor)
    }

    /// Contracts and fixtures found from a source file of the gate's package: `contracts/` and
    /// `fixtures/` in the folder that holds `Package.swift`, whatever the working directory.
    public init(
        name: String, packageFile: String, contracts: String = "contracts", fixtures: String = "fixtures", answersFor: [String]? = nil
    ) {
        let root = Self.packageRoot(of: URL(fileURLWithPath: packageFile))
        self.init(
            name: name, contracts: root.appendingPathComponent(contracts).path, fixtures: root.appendingPathComponent(fixtures).path,
            answersFor: answersFor)
    }

    init(commandName: String, displayName: String, contracts: String, fixtures: String, answersFor: [String]? = nil) {
        self.commandName = commandName
        self.displayName = displayName
        self.contracts = contracts
        self.fixtures = fixtures
        self.answersFor = answersFor
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
