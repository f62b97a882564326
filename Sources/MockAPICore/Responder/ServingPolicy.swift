/// The server's settings that decide answers (`mockapi serve` flags), handed to every
/// `Responder` so that deciding needs nothing from the server.
package struct ServingPolicy: Sendable {
    /// Answer preflights and add `Responder.corsHeaders` to every answer (`--cors`).
    package var cors = false
    /// How long every contract answer waits, unless its response or the request says otherwise (`--delay`).
    package var delay: Latency?
    /// The longest wait, in milliseconds (`--max-delay`).
    package var maxDelayMilliseconds = Latency.defaultCeilingMilliseconds
    /// Bodies larger than this get a 413 (`--max-body-bytes`)…
    package var maxBodyBytes = 32 * 1024 * 1024
    /// …and JSON bodies, buffered whole, past this smaller one (`--max-json-bytes`).
    package var maxJSONBytes = 1024 * 1024
    /// Bytes of bodies held at once across every connection (`--max-buffered-bytes`).
    package var maxBufferedBytes = 64 * 1024 * 1024
    /// Requests no contract takes go to a real backend instead of a 404.
    package var forwardsUnmatched = false
    /// The set came from files that `POST /__mockapi/reload` can read again.
    package var canReload = false
    /// Admin endpoints the command running the server adds, as `METHOD /path`.
    package var adminActions: Set<String> = []

    package init() {}

    /// What every answer gets on top of its own headers.
    package var extraHeaders: [HTTPField] { cors ? Responder.corsHeaders : [] }
}
