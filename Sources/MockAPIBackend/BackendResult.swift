import MockAPICore

/// What checking one contract against a real backend found.
package struct BackendResult: Sendable {
    package enum Outcome: String, Sendable {
        case passed, failed
        /// Not sent: a write (`POST`, `PUT`, `PATCH`, `DELETE`) without `--allow-writes`.
        case skipped
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
    /// 1 when any contract failed, as `verify` does.
    package var exitCode: Int32 { failed == 0 ? 0 : 1 }
}
