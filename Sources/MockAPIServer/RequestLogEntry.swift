import MockAPICore

/// What one request's log line needs, copied on the request thread; formatted later, on the
/// log's queue (`RequestLogFormatter`).
struct RequestLogEntry: Sendable {
    /// Milliseconds since 1970 when the request's headers arrived.
    var receivedAt: Int64
    var method: String
    var path: String
    /// Decoded pairs; re-encoded only when the line is formatted.
    var query: [(name: String, value: String?)]
    var status: Int
    var contract: String?
    var response: String?
    /// Why mockapi refused the request, in one line; nil when served.
    var problem: String?
    var nanoseconds: UInt64
    /// Verbose lines only: the headers as received (redacted when formatted, as the journal does)…
    var headers: HeaderFields?
    var redaction = HeaderRedaction.standard
    /// …and the set, where the served response's own headers are looked up.
    var contracts: ContractSet?
}
