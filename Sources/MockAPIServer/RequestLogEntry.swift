import MockAPICore

/// What one request's log line needs: the request's record (the journal's too) and its path as
/// text, copied on the request thread; formatted later, on the log's queue (`RequestLogFormatter`).
struct RequestLogEntry: Sendable {
    var record: RequestRecord
    var path: String
    var nanoseconds: UInt64
    /// The session the request was served in (`/s/ID/…` or `Mockapi-Session`); `path` is the
    /// path the contracts saw, without the prefix.
    var session: String? = nil
    /// Verbose lines show the request headers (redacted when formatted, as the journal does)…
    var verbose = false
    var redaction = HeaderRedaction.standard
    /// …and the set, where the served response's own headers are looked up.
    var contracts: ContractSet?
}
