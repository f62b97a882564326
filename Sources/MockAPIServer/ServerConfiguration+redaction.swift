import MockAPICore

extension ServerConfiguration {
    /// What the journal and the request log redact: `journalSecrets` and `redactedHeaders` as one
    /// value. Built once, for the journal; the log reads the journal's (no copy per request).
    var headerRedaction: HeaderRedaction {
        journalSecrets ? .off : HeaderRedaction(extraNames: redactedHeaders)
    }
}
