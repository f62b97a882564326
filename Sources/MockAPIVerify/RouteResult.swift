/// The outcome of checking one client route.
public struct RouteResult: Sendable, Equatable {
    public enum Outcome: String, Sendable { case pass, fail }

    /// One failed check, as a block a person can act on.
    public struct Failure: Sendable, Equatable {
        /// `contract`, `upload`, `decoding`, `status`, `coverage`, `drift`.
        public var check: String
        public var message: String
    }

    public struct SentRequest: Sendable, Equatable {
        public var method: String
        public var url: String
        public var parts: [String]
    }

    public var name: String
    public var contract: String
    public var request: SentRequest?
    public var failures: [Failure] = []
    /// Reported, and failures under `--strict`: fixture keys the model never reads.
    public var warnings: [String] = []
    public var seconds: Double = 0

    public var outcome: Outcome { failures.isEmpty ? .pass : .fail }
}

/// Everything `mockapi verify` found.
public struct VerifyReport: Sendable {
    public var routes: [RouteResult]
    /// Contracts no client route claims.
    public var uncoveredContracts: [String]
    public var strict: Bool
    public var target: String
    public var seconds: Double

    public var passed: Int { routes.filter { $0.outcome == .pass }.count }
    public var failed: Int { routes.count - passed }

    /// 0 when everything holds, 1 when any check fails (uncovered contracts count under `--strict`).
    public var exitCode: Int32 {
        failed > 0 || (strict && !uncoveredContracts.isEmpty) ? 1 : 0
    }
}
