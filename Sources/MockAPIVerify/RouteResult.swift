/// The outcome of checking one client route.
public struct RouteResult: Sendable, Equatable {
    public enum Outcome: String, Sendable { case pass, fail }

    /// One failed check, as a block a person can act on.
    public struct Failure: Error, Sendable, Equatable {
        public var check: Check
        public var message: String
    }

    /// What a failure is about; its raw value is how reports name it.
    public enum Check: String, Sendable, CaseIterable {
        /// The request broke its contract, matched another, or the route claims a response the contract lacks.
        case contract
        /// A multipart part arrived other than as sent.
        case upload
        /// A response does not decode into the client's model.
        case decoding
        /// A response came back with another status than its contract's.
        case status
        /// A contract or response nothing checks (strict coverage), or a route claiming a missing contract.
        case coverage
        /// Fixture keys the model never reads (`--strict`).
        case drift
        /// A rare answer the response's `schema` allows does not decode (`--strict-variants`).
        case variants
        /// The server evicted the request from its journal before the runner read it.
        case journal
        /// The request could not be sent.
        case transport
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
    /// Responses the contract has that the route declares no decoder for, so nothing checks
    /// them: reported, and a `coverage` failure under strict coverage.
    public var unhandledResponses: [String] = []
    /// Rare answers (`--variants`) the client's decoder refuses: failures under `--strict-variants`.
    public var variantFailures: [VariantFailure] = []
    /// How many variants were decoded, and how many each response's limit left out.
    public var variantsChecked = 0
    public var variantsLeftOut = 0
    public var seconds: Double = 0

    /// One rare answer the client cannot decode: the response, the change, where, and the decoder's error.
    public struct VariantFailure: Sendable, Equatable, CustomStringConvertible {
        public var response: String
        /// `optional key absent`, `nullable key null`, `enum value`, `empty array`, `19-digit integer`,
        /// `date-time with fractional seconds`, `date-time with offset`, `unknown key`.
        public var label: String
        /// `$.creator.avatar`
        public var path: String
        /// The value put there, as JSON; `absent` where the key was taken out.
        public var value: String
        /// The decoding error: `creator.avatar: missing key`; for a crash, what the process said last
        /// (`Fatal error: Unexpectedly found nil while unwrapping an Optional value`).
        public var error: String
        /// How the decoder ended the process decoding it (`SIGILL (signal 4)`); nil when it threw.
        public var crash: String?

        public var description: String {
            if let crash {
                return "response \"\(response)\": the decoder crashed on variant \(path): \(label) (\(value)), \(crash): \(error)"
            }
            return "response \"\(response)\": \(label) at \(path) (\(value)): \(error)"
        }
    }

    public var outcome: Outcome { failures.isEmpty ? .pass : .fail }
}

/// Everything `mockapi verify` found.
public struct VerifyReport: Sendable {
    public var routes: [RouteResult]
    /// Contracts in scope that no client route claims.
    public var uncoveredContracts: [String]
    /// Uncovered contracts fail the run.
    public var strictCoverage: Bool
    /// Drift fails the route (the warnings are already failures in `routes`).
    public var strictDrift: Bool
    /// What the run could not check, said once (e.g. drift for models that are not Encodable).
    public var notes: [String]
    public var target: String
    public var seconds: Double
    /// Links in the in-scope responses that lead nowhere (each fails the run).
    public var deadLinks: [DeadLink] = []
    /// Rare answers were decoded (`--variants`); under `strictVariants` their failures are in `routes`' failures.
    public var variants = false
    public var strictVariants = false

    package init(
        routes: [RouteResult], uncoveredContracts: [String], strictCoverage: Bool, strictDrift: Bool,
        notes: [String] = [], target: String, seconds: Double
    ) {
        self.routes = routes
        self.uncoveredContracts = uncoveredContracts
        self.strictCoverage = strictCoverage
        self.strictDrift = strictDrift
        self.notes = notes
        self.target = target
        self.seconds = seconds
    }

    public var passed: Int { routes.filter { $0.outcome == .pass }.count }
    public var failed: Int { routes.count - passed }

    /// 0 when everything holds, 1 when any check fails (uncovered contracts count under strict coverage).
    public var exitCode: Int32 {
        failed > 0 || (strictCoverage && !uncoveredContracts.isEmpty) || !deadLinks.isEmpty ? 1 : 0
    }
}
