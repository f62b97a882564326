import MockAPICore

/// What an importer produced: contracts, the fixture files they reference, and what it could not express.
public struct ImportedSet: Sendable {
    public var contracts: [ContractDraft] = []
    /// Paths relative to `fixtures/`.
    public var fixtures: [Fixture] = []
    /// One line each, for stderr: what was skipped or loosened, and where.
    public var warnings: [String] = []
    /// Operations or request groups left out entirely.
    public var skipped = 0
    /// `_defaults.json`, when the source has set-wide query keys and headers.
    public var defaults: SetDefaults?

    public init() {}

    public struct Fixture: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    public var responseCount: Int { contracts.reduce(0) { $0 + $1.responses.count } }
}
