/// The server's brain, with no sockets: routes a request, checks it against its contract and
/// chooses the answer. The server module only moves bytes in and out.
///
/// Immutable apart from the scenario positions and the journal, which are thread-safe, so one
/// responder serves every libmicrohttpd thread.
public final class Responder: Sendable {
    /// What to do with a request once its method and path are known.
    public enum Route: Sendable, Equatable {
        case contract(Int)
        case admin
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    /// How the answer is produced.
    public enum Reply: Sendable {
        /// A contract's named response, prepared once at start.
        case prepared(contract: Int, response: Int)
        case generated(GeneratedResponse)
    }

    public let set: ContractSet
    public let scenarios = ScenarioState()
    public let journal: RequestJournal

    public static let adminPrefix = "/__mockapi/"

    public init(set: ContractSet, journalCapacity: Int = 10_000) {
        self.set = set
        self.journal = RequestJournal(capacity: journalCapacity)
    }

    public func route(method rawMethod: String, path: String) -> Route {
        // Bytes, not String.hasPrefix: this runs on every request and needs no Unicode rules.
        if path.utf8.starts(with: Self.adminPrefix.utf8) { return .admin }
        guard let method = HTTPMethod(rawValue: rawMethod) else {
            // Unknown methods get the same treatment as known ones the path does not allow.
            for candidate in HTTPMethod.allCases {
                if case .found = set.routes.match(method: candidate, path: path) { return .methodNotAllowed(allowedMethods(path)) }
            }
            return .notFound
        }
        switch set.routes.match(method: method, path: path) {
        case .found(let index): return .contract(index)
        case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed)
        case .notFound: return .notFound
        }
    }

    private func allowedMethods(_ path: String) -> [HTTPMethod] {
        HTTPMethod.allCases.filter { if case .found = set.routes.match(method: $0, path: path) { true } else { false } }
    }

    /// The answer for a request routed to a contract, once its body has arrived.
    /// Returns the reply and the name of the response chosen (nil for errors).
    public func respond(toContract index: Int, request: IncomingRequest) -> (reply: Reply, responseName: String?) {
        let contract = set.contracts[index]
        var violations = RequestValidator.violations(of: request, against: contract.request)
        if violations.isEmpty {
            switch ResponseSelector.select(for: contract, index: index, query: request.query,
                                           prefer: request.header("Prefer"), scenarios: scenarios) {
            case .success(let response):
                return (.prepared(contract: index, response: response), contract.responses[response].name)
            case .failure(let violation):
                violations.append(violation)
            }
        }
        return (.generated(ErrorResponses.contractViolation(contract, set: set, violations: violations)), nil)
    }

    /// The answer for a request that matched no contract.
    public func respondUnrouted(_ route: Route, rawMethod: String, path: String) -> GeneratedResponse {
        switch route {
        case .methodNotAllowed(let allowed):
            return ErrorResponses.methodNotAllowed(rawMethod: rawMethod, path: path, allowed: allowed)
        default:
            return ErrorResponses.notFound(method: HTTPMethod(rawValue: rawMethod), rawMethod: rawMethod, path: path, set: set)
        }
    }
}
