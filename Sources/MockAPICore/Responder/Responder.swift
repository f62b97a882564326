import SystemLibc

/// The server's brain, with no sockets: routes a request, checks it against its contract and
/// chooses the answer. The server module only moves bytes in and out.
///
/// Immutable apart from the scenario positions and the journal, which are thread-safe, so one
/// responder serves every libmicrohttpd thread.
package final class Responder: Sendable {
    /// Where a request goes once its method and path are known: a contract, the admin API, or
    /// nowhere (and why). Not a route in the client's sense (see docs/architecture.md, Words).
    package enum Destination: Sendable, Equatable {
        case contract(Int)
        case admin
        case methodNotAllowed([RequestMethod])
        case notFound
    }

    package let set: ContractSet
    package let scenarios = ScenarioState()
    /// What resource operations (`resource` contracts) have written.
    package let resourceStore = ResourceStore()
    package let journal: RequestJournal
    /// The live sessions (`/s/ID/…`), each with its own scenarios and journal; kept across reloads.
    package let sessions: SessionRegistry

    /// On every answer about a contract: its name, so a client (and `verify`) sees which one matched.
    package static let contractHeader = "Mockapi-Contract"
    /// On a contract's own refusal (`"refusal"`), the violations mockapi found, which its body does not say.
    package static let problemHeader = "Mockapi-Problem"

    package static let adminPrefix = "/__mockapi/"
    private static let adminPrefixBytes = Array(adminPrefix.utf8)

    /// Per contract, the response a plain request (no query, no body, no `Prefer` header) gets
    /// when that cannot vary, found once at load by the same validation and selection `respond`
    /// runs; nil when a plain request breaks the contract or its answer varies (a sequence).
    let plainResponses: [Int?]
    /// Per contract, the expectation that decides what to keep of a request routed to it
    /// (`contractForBody`), when that expects a JSON or multipart body; nil for the common
    /// contract that reads none, so routing a head needs no dictionary lookup nor contract copy.
    /// Also set for a contract whose answers echo the body (`{{body.…}}`), though it checks none.
    let bodyExpectations: [RequestExpectation?]
    /// Per contract, whether an answer of it (or of its discriminated group) echoes the request's
    /// body, which is then kept when it is JSON, a form or multipart (its text parts) even if the
    /// contract checks no body.
    let echoesBody: [Bool]
    /// Per contract, whether a response's `when` (or a `match` of its discriminated group) looks
    /// at the body or its type: the body is then kept as for an echo, and the `Content-Type` read.
    let rulesReadBody: [Bool]
    /// The contracts' and responses' names as bytes, for the journal.
    package let names: NameBytes

    package let adminAccess: AdminAccess
    /// What `GET /__mockapi/ready` says; shared by every responder a reload makes.
    package let readiness: Readiness
    /// The server's settings that decide answers.
    package let policy: ServingPolicy
    /// What the policy adds to every answer (CORS), made once.
    package let extraHeaders: [HTTPField]

    package init(
        set: ContractSet, journal: RequestJournal = RequestJournal(), adminAccess: AdminAccess = AdminAccess(),
        policy: ServingPolicy = ServingPolicy(), readiness: Readiness = Readiness(), sessions: SessionRegistry = SessionRegistry()
    ) {
        self.set = set
        self.sessions = sessions
        self.readiness = readiness
        self.journal = journal
        self.adminAccess = adminAccess
        self.policy = policy
        extraHeaders = policy.extraHeaders
        names = NameBytes(set.contracts)
        let echoesBody = set.contracts.indices.map { index in
            (set.routes.discriminated[index] ?? [index]).contains { member in
                set.contracts[member].responses.contains { $0.template?.needsBody == true }
            }
        }
        self.echoesBody = echoesBody
        let rulesReadBody = set.contracts.indices.map { index in
            (set.routes.discriminated[index] ?? [index]).contains { member in
                set.contracts[member].request.match?.readsBody == true || set.contracts[member].responses.contains { $0.when?.readsBody == true }
            }
        }
        self.rulesReadBody = rulesReadBody
        bodyExpectations = set.contracts.indices.map { index in
            let expectation = Self.contractForBody(routedTo: index, in: set).request
            return expectation.checksBody || echoesBody[index] || rulesReadBody[index] ? expectation : nil
        }
        plainResponses = set.contracts.enumerated().map { index, contract in
            // A request routed to a discriminated group is only placed once its body is in.
            // A `when` on the type holds for a request that states one with no body.
            guard contract.sequence == nil, set.routes.discriminated[index] == nil, set.resources.operation(of: index) == nil,
                !contract.responses.contains(where: { $0.when?.contentType != nil }),
                RequestValidator.violations(of: IncomingRequest(), against: contract.request).isEmpty,
                case .success(let response) = ResponseSelector.select(
                    for: contract, index: index, query: [], prefer: nil,
                    scenarios: ScenarioState()),
                contract.responses[response].delay == nil, contract.responses[response].fault == nil
            else { return nil }
            return response
        }
    }

    /// The answer to a plain request (no query, no body, no `Prefer` header: `prefer` is its
    /// value), when it is fixed: most mock traffic is such requests, and this skips building a
    /// request to validate. Nil means `respond` decides.
    package func plainResponse(toContract index: Int, query: [QueryArgument], bodyBytes: Int, prefer: String?) -> Int? {
        guard prefer == nil, query.isEmpty, bodyBytes == 0 else { return nil }
        return plainResponses[index]
    }

    // Read in place, for the request path: binding `set` (or a `Contract`) to a local copies it,
    // a retain and a release per field on every request.
    /// The name of contract `index`.
    package func contractName(_ index: Int) -> String { set.contracts[index].name }
    /// The name of response `response` of contract `index`.
    package func responseName(contract index: Int, response: Int) -> String { set.contracts[index].responses[response].name }
    /// The status of response `response` of contract `index`.
    package func status(contract index: Int, response: Int) -> Int { set.contracts[index].responses[response].status }

    /// Where a request goes, from its path bytes; `method` is nil for a method no contract can name.
    package func destination(method: RequestMethod?, path: UnsafeBufferPointer<UInt8>) -> Destination {
        // `/__` first, in line: most paths differ at their second byte, and reading the static
        // array (a `swift_once`) and calling memcmp cost about 35 instructions on every request.
        if path.count > 2, path[1] == UInt8(ascii: "_"), path.count >= Self.adminPrefixBytes.count,
            Self.adminPrefixBytes.withUnsafeBytes({ memcmp(path.baseAddress!, $0.baseAddress!, $0.count) }) == 0
        {
            return .admin
        }
        guard let method else {
            // Unknown methods get the same treatment as known ones the path does not allow.
            let allowed = RequestMethod.allCases.filter { if case .found = set.routes.match(method: $0, path: path) { true } else { false } }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
        switch set.routes.match(method: method, path: path) {
        case .found(let index): return .contract(index)
        case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed)
        case .notFound: return .notFound
        }
    }

    /// Whether the answers of the contract a head was routed to echo its body (what a multipart
    /// body keeps of its text parts).
    package func echoesBody(routedTo destination: Destination) -> Bool {
        guard case .contract(let index) = destination else { return false }
        return echoesBody[index]
    }

    /// The contract whose body expectations decide what to keep of a request routed to `index`:
    /// for a discriminated group, a member that reads the body (its `match` may be on it).
    package func contractForBody(routedTo index: Int) -> Contract {
        Self.contractForBody(routedTo: index, in: set)
    }

    private static func contractForBody(routedTo index: Int, in set: ContractSet) -> Contract {
        guard let members = set.routes.discriminated[index] else { return set.contracts[index] }
        let reader = members.first { set.contracts[$0].request.checksBody }
        return set.contracts[reader ?? index]
    }

    /// The answer for a request that matched no contract.
    package func respondUnrouted(_ destination: Destination, rawMethod: String, path: String) -> GeneratedResponse {
        switch destination {
        case .methodNotAllowed(let allowed):
            return ErrorResponses.methodNotAllowed(rawMethod: rawMethod, path: path, allowed: allowed)
        default:
            return ErrorResponses.notFound(method: RequestMethod(rawValue: rawMethod), rawMethod: rawMethod, path: path, set: set)
        }
    }
}
