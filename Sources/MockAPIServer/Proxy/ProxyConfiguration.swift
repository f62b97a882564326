package import MockAPICore

/// A real backend that requests no contract takes are sent to (`serve --proxy-unmatched`, `record`).
package struct ProxyConfiguration: Sendable {
    /// `https://api.example.com` (a path prefix is kept: `https://host/api` + `/v1/x`).
    package var target: String
    /// A PEM file of the CAs to trust for an HTTPS target; nil for the system's.
    package var caFile: String?
    /// Seconds the target may take to send its answer's head before the client gets a 504, and
    /// then to send more of the body (waiting for a slow client does not count) before the
    /// client's connection is closed.
    package var timeoutSeconds = 30
    /// Exchanges with the target at once; more wait their turn (on no worker thread).
    package var concurrency = 16
    /// Leave out the client's `Accept-Encoding`, so the target answers uncompressed: what
    /// `record` needs to learn fixtures from bodies (the client still gets a valid answer).
    package var identityEncoding = false
    /// The most bytes of an answer body `observer` is given (`record --max-recorded-body-bytes`):
    /// bodies are passed on as they arrive, and only this much of each is kept.
    package var maxRecordedBodyBytes = 16 * 1024 * 1024
    /// Told of every finished exchange (credentials already redacted), on a forwarding thread.
    package var observer: (@Sendable (ProxiedExchange) -> Void)?

    package init(target: String, caFile: String? = nil) {
        self.target = target.hasSuffix("/") ? String(target.dropLast()) : target
        self.caFile = caFile
    }
}

/// One request forwarded and what the target answered, as `record` keeps it.
package struct ProxiedExchange: Sendable {
    package var method: String
    /// Absolute, on the target: `https://api.example.com/v1/projects?page=2`.
    package var url: String
    /// `Authorization`, `Cookie` and `Proxy-Authorization` redacted (`token [redacted]`).
    package var requestHeaders: [HTTPField]
    /// The clear values of the headers `requestHeaders` has redacted (a session `Cookie`): only
    /// for `record` to cut them out of answers that echo them, never to be written.
    package var redactedRequestHeaders: [HTTPField] = []
    package var requestBody: [UInt8]
    /// 0 when the target could not be reached (`error` says why).
    package var status: Int
    package var responseHeaders: [HTTPField]
    /// The body's first `maxRecordedBodyBytes` at most; `responseBodyLength` is its whole length.
    package var responseBody: [UInt8]
    package var responseBodyLength = 0
    package var error: String?
}
