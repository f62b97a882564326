/// What a client's own test run did to a mock server, read from its journal: the requests the
/// contracts did not allow, and the contracts no request exercised.
public struct CoverageReport: Sendable, Equatable {
    /// One journaled request mockapi refused.
    public struct Refusal: Sendable, Equatable {
        public var id: Int
        public var method: String
        /// Path and query as sent: `/v1/discover?page=x`.
        public var target: String
        public var status: Int
        /// The contract the path matched, nil when none did.
        public var contract: String?
        /// Why it was refused, as the journal says.
        public var problem: String
    }

    /// One contract and how many journaled requests it served.
    public struct ContractUse: Sendable, Equatable {
        public var name: String
        public var method: String
        public var path: String
        public var file: String
        public var served: Int
    }

    public var target: String
    /// Journal entries read (admin requests are not journaled).
    public var requests: Int
    /// Requests no contract matched (404, 405, and refusals before routing such as 413).
    public var unmatched: [Refusal]
    /// Requests that matched a contract and broke it (422) or could not be read (400).
    public var violations: [Refusal]
    public var contracts: [ContractUse]
    /// Uncovered contracts fail the gate.
    public var strict: Bool
    /// Requests after `since` the server evicted (`--journal-size`, `--journal-bytes`) before
    /// they were read: unchecked, so the gate fails. Requests cleared with `DELETE` do not count.
    public var evicted: Int

    public var uncovered: [ContractUse] { contracts.filter { $0.served == 0 } }

    /// No request of the run reached the server: a client pointed at another URL would
    /// otherwise pass the gate with nothing checked.
    public var noRequests: Bool { requests == 0 && evicted == 0 }

    /// 0 when the run sent requests, every one was read and kept its contract (and, under strict,
    /// every contract was exercised), 1 otherwise.
    public var exitCode: Int32 {
        noRequests || evicted > 0 || !unmatched.isEmpty || !violations.isEmpty || (strict && !uncovered.isEmpty) ? 1 : 0
    }
}
