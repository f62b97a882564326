/// How strict a run is, which contracts it answers for, and how requests travel.
public struct VerifyOptions: Sendable {
    /// Which contracts the client answers for: coverage is counted over these, and checks that
    /// claim a contract outside them are not run.
    public enum Scope: Sendable, Equatable {
        /// Every contract in the set.
        case all
        /// Only the contracts the checks claim: a client that covers part of a shared API.
        case claimed
        /// These contracts, by name.
        case contracts([String])

        /// The contract names a run answers for, given the names its checks claim.
        func contractNames(in set: ContractSet, claimed: [String]) -> Set<String> {
            switch self {
            case .all: Set(set.contracts.map(\.name))
            case .claimed: Set(claimed)
            case .contracts(let names): Set(names)
            }
        }
    }

    public var scope: Scope
    /// Contracts in scope that no check exercises fail the run.
    public var strictCoverage: Bool
    /// Fixture keys a model never reads fail the route instead of warning.
    public var strictDrift: Bool
    public var transport: Transport
    /// The server's `--admin-token`, for its journal and scenario endpoints.
    public var adminToken: String?
    /// The app's deep-link matcher: web links in the fixtures it refuses fail the run. API links
    /// (`{{baseURL}}/…`) are checked against the contracts either way.
    public var deepLinks: DeepLinkCheck?
    /// Each response with a `schema` is also decoded in the rare forms the schema allows (an
    /// optional key absent, a nullable one null, each enum value, ...): one change at a time,
    /// decoded with the route's decoder, no request per variant. Reported; failures only with `strictVariants`.
    public var variants: Bool
    /// A variant the client cannot decode fails the route (and turns `variants` on).
    public var strictVariants: Bool
    /// Where variants are decoded: in a child process when set (a gate's `main` sets it, so a
    /// decoder that traps is reported as a crash and the run goes on); in this process when nil.
    package var decodingChild: DecodingChild?

    public init(
        scope: Scope = .all, strictCoverage: Bool = false, strictDrift: Bool = false, transport: Transport = .shared,
        adminToken: String? = nil, deepLinks: DeepLinkCheck? = nil, variants: Bool = false, strictVariants: Bool = false
    ) {
        self.variants = variants || strictVariants
        self.strictVariants = strictVariants
        self.scope = scope
        self.strictCoverage = strictCoverage
        self.strictDrift = strictDrift
        self.transport = transport
        self.adminToken = adminToken
        self.deepLinks = deepLinks
    }
}
