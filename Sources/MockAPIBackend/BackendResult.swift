import MockAPICore

/// What checking one contract against a real backend found.
package struct BackendResult: Sendable {
    package enum Outcome: String, Sendable {
        case passed, failed
        /// Not sent: a write (`POST`, `PUT`, `PATCH`, `DELETE`) without `--allow-writes`.
        case skipped
        /// Sent, but the answer was a declared error (a 404 for an id the backend does not know)
        /// where the mock gives a success: the success answer was never checked. Not a pass.
        case notReached
    }

    package var contract: String
    /// `GET https://staging.example.com/v1/projects/1`.
    package var request: String
    package var outcome: Outcome
    /// Each difference between the answer and what the mock promises, by JSON path and fixture file.
    package var failures: [String] = []
    /// Keys the backend sends that the fixture lacks (the mock is behind), and guessed request values.
    package var notes: [String] = []
    package var status: Int?
    package var seconds: Double = 0
}

/// Every contract's result, in contract order.
package struct BackendReport: Sendable {
    package var baseURL: String
    package var results: [BackendResult]
    package var seconds: Double

    package var failed: Int { results.filter { $0.outcome == .failed }.count }
    package var passed: Int { results.filter { $0.outcome == .passed }.count }
    package var skipped: Int { results.filter { $0.outcome == .skipped }.count }
    package var notReached: Int { results.filter { $0.outcome == .notReached }.count }
    /// 1 when any contract failed or was not reached, as `verify` does for a failure: an
    /// unchecked success answer must not let a gate pass.
    package var exitCode: Int32 { failed + notReached == 0 ? 0 : 1 }
}
