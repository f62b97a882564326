package import MockAPICore

/// What an importer produced: contracts, the fixture files they reference, and what it could not express.
package struct ImportedSet: Sendable {
    package var contracts: [ContractDraft] = []
    /// Paths relative to `fixtures/`.
    package var fixtures: [Fixture] = []
    /// One line each, for stderr: what was skipped or loosened, and where.
    package var warnings: [String] = []
    /// Operations or request groups left out entirely.
    package var skipped = 0
    /// `_defaults.json`, when the source has set-wide query keys and headers.
    package var defaults: SetDefaults?

    package init() {}

    package struct Fixture: Sendable, Equatable {
        package var path: String
        package var bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    package var responseCount: Int { contracts.reduce(0) { $0 + $1.responses.count } }
}
