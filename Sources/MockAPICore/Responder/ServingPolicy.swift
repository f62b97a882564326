/// The server's settings that decide answers (`mockapi serve` flags), handed to every
/// `Responder` so that deciding needs nothing from the server.
public struct ServingPolicy: Sendable {
    /// Answer preflights and add `Responder.corsHeaders` to every answer (`--cors`).
    public var cors = false
    /// How long every contract answer waits, unless its response or the request says otherwise (`--delay`).
    public var delay: Latency?
    /// The longest wait, in milliseconds (`--max-delay`).
    public var maxDelayMilliseconds = Latency.defaultCeilingMilliseconds
    /// Bodies larger than this get a 413 (`--max-body-bytes`)…
    public var maxBodyBytes = 32 * 1024 * 1024
    /// …and JSON bodies, buffered whole, past this smaller one (`--max-json-bytes`).
    public var maxJSONBytes = 1024 * 1024
    /// Bytes of bodies held at once across every connection (`--max-buffered-bytes`).
    public var maxBufferedBytes = 64 * 1024 * 1024
    /// Requests no contract takes go to a real backend instead of a 404.
    public var forwardsUnmatched = false
    /// The set came from files that `POST /__mockapi/reload` can read again.
    public var canReload = false
    /// Admin endpoints the command running the server adds, as `METHOD /path`.
    public var adminActions: Set<String> = []

    public init() {}

    /// What every answer gets on top of its own headers.
    public var extraHeaders: [(name: String, value: String)] { cors ? Responder.corsHeaders : [] }
}
