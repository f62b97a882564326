import MockAPICore

/// What checking one contract against a real backend found.
public struct BackendResult: Sendable {
    public enum Outcome: String, Sendable {
        case passed, failed
        /// Not sent: a write (`POST`, `PUT`, `PATCH`, `DELETE`) without `--allow-writes`.
        case skipped
    }

    public var contract: String
    /// `GET https://staging.example.com/v1/projects/1`.
    public var request: String
    public var outcome: Outcome
    /// Each difference between the answer and what the mock promises, by JSON path and fixture file.
    public var failures: [String] = []
    /// Keys the backend sends that the fixture lacks (the mock is behind), and guessed request values.
    public var notes: [String] = []
    public var status: Int?
    public var seconds: Double = 0
}

/// Every contract's result, in contract order.
public struct BackendReport: Sendable {
    public var baseURL: String
    public var results: [BackendResult]
    public var seconds: Double

    public var failed: Int { results.filter { $0.outcome == .failed }.count }
    public var passed: Int { results.filter { $0.outcome == .passed }.count }
    public var skipped: Int { results.filter { $0.outcome == .skipped }.count }
    /// 1 when any contract failed, as `verify` does.
    public var exitCode: Int32 { failed == 0 ? 0 : 1 }
}
