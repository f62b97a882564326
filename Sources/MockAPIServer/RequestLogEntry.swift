import MockAPICore

/// What one request's log line needs: the request's record (the journal's too) and its path as
/// text, copied on the request thread; formatted later, on the log's queue (`RequestLogFormatter`).
struct RequestLogEntry: Sendable {
    var record: RequestRecord
    var path: String
    var nanoseconds: UInt64
    /// Verbose lines show the request headers (redacted when formatted, as the journal does)…
    var verbose = false
    var redaction = HeaderRedaction.standard
    /// …and the set, where the served response's own headers are looked up.
    var contracts: ContractSet?
}
