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
        /// Where it was journaled, when the report read several journals (servers, sessions),
        /// whose ids overlap: `http://127.0.0.1:8081` or `http://127.0.0.1:8081/s/ID`.
        package var journal: String? = nil

        /// `#2`, or with several journals `#2 at http://127.0.0.1:8081/s/ID`.
        package var reference: String { journal.map { "#\(id) at \($0)" } ?? "#\(id)" }
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
    /// Requests no contract matched that a person's browser sent (a page opened on the mock, its
    /// `/favicon.ico`): reported apart, never failing the gate (``isBrowsing(method:path:headers:)``).
    package var browsing: [Refusal] = []
    package var contracts: [ContractUse]
    /// Uncovered contracts fail the gate.
    package var strict: Bool
    /// Requests after `since` the server evicted (`--journal-size`, `--journal-bytes`) before
    /// they were read: unchecked, so the gate fails. Requests cleared with `DELETE` do not count.
    package var evicted: Int

    package var uncovered: [ContractUse] { contracts.filter { $0.served == 0 } }

    /// No request of the run reached the server: a client pointed at another URL would
    /// otherwise pass the gate with nothing checked.
    /// Browsing is not the client's traffic: a run that sent nothing else sent nothing.
    package var noRequests: Bool { requests - browsing.count == 0 && evicted == 0 }

    /// 0 when the run sent requests, every one was read and kept its contract (and, under strict,
    /// every contract was exercised), 1 otherwise.
    package var exitCode: Int32 {
        noRequests || evicted > 0 || !unmatched.isEmpty || !violations.isEmpty || (strict && !uncovered.isEmpty) ? 1 : 0
    }
}

extension CoverageReport {
    /// Whether an unmatched request is a person browsing the mock rather than the client under
    /// test: a browser's navigation (`Sec-Fetch-Mode: navigate`, which `fetch`, XHR and HTTP
    /// libraries never send) or the icon a browser asks for by itself (`/favicon.ico`).
    package static func isBrowsing(path: String, secFetchMode: String?) -> Bool {
        path == "/favicon.ico" || secFetchMode?.lowercased() == "navigate"
    }
}
