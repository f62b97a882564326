/// What a client's own test run did to a mock server, read from its journal: the requests the
/// contracts did not allow, and the contracts no request exercised.
package struct CoverageReport: Sendable, Equatable {
    /// One journaled request mockapi refused.
    package struct Refusal: Sendable, Equatable {
        package var id: Int
        package var method: String
        /// Path and query as sent: `/v1/discover?page=x`.
        package var target: String
        package var status: Int
        /// The contract the path matched, nil when none did.
        package var contract: String?
        /// Why it was refused, as the journal says.
        package var problem: String
    }

    /// One contract and how many journaled requests it served.
    package struct ContractUse: Sendable, Equatable {
        package var name: String
        package var method: String
        package var path: String
        package var file: String
        package var served: Int
    }

    package var target: String
    /// Journal entries read (admin requests are not journaled).
    package var requests: Int
    /// Requests no contract matched (404, 405, and refusals before routing such as 413).
    package var unmatched: [Refusal]
    /// Requests that matched a contract and broke it (422) or could not be read (400).
    package var violations: [Refusal]
    package var contracts: [ContractUse]
    /// Uncovered contracts fail the gate.
    package var strict: Bool
    /// Requests after `since` the server evicted (`--journal-size`, `--journal-bytes`) before
    /// they were read: unchecked, so the gate fails. Requests cleared with `DELETE` do not count.
    package var evicted: Int

    package var uncovered: [ContractUse] { contracts.filter { $0.served == 0 } }

    /// No request of the run reached the server: a client pointed at another URL would
    /// otherwise pass the gate with nothing checked.
    package var noRequests: Bool { requests == 0 && evicted == 0 }

    /// 0 when the run sent requests, every one was read and kept its contract (and, under strict,
    /// every contract was exercised), 1 otherwise.
    package var exitCode: Int32 {
        noRequests || evicted > 0 || !unmatched.isEmpty || !violations.isEmpty || (strict && !uncovered.isEmpty) ? 1 : 0
    }
}
