import MockAPICore

extension ServerConfiguration {
    /// What the journal and the request log redact: `journalSecrets` and `redactedHeaders` as one value.
    var headerRedaction: HeaderRedaction {
        journalSecrets ? .off : HeaderRedaction(extraNames: redactedHeaders)
    }
}
