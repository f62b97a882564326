import MockAPICore

/// How a `MockServer` listens and what it tolerates.
public struct ServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal; `127.0.0.1` keeps the mock off the network.
    public var host = "127.0.0.1"
    /// 0 picks a free port; read the real one from `MockServer.port`.
    public var port: UInt16 = 8080
    /// HTTPS with this certificate and key; nil for plain HTTP.
    public var tls: TLSCredentials?
    /// Bodies larger than this get a 413.
    public var maxBodyBytes = 32 * 1024 * 1024
    /// JSON bodies are buffered whole to be parsed, so they get a 413 past this smaller limit.
    public var maxJSONBytes = 1024 * 1024
    /// Idle connections are closed after this many seconds.
    public var connectionTimeoutSeconds = 30
    public var maxConnections = 1024
    /// Connections one client address may hold at once, so no single client takes every slot.
    public var maxConnectionsPerIP = 256
    /// Seconds a connection may take to deliver a request's headers, counted from its opening or
    /// its previous response however slowly bytes trickle in (slowloris); 0 for no deadline.
    public var headerTimeoutSeconds = 10
    /// libmicrohttpd worker threads; defaults to the number of cores.
    public var threads = System.coreCount
    /// Requests the journal keeps.
    public var journalCapacity = 10_000
    /// Bytes of records the journal keeps at most (the oldest go first).
    public var journalMaxBytes = 64 * 1024 * 1024
    /// Journal and log credential headers as sent instead of redacted (`HeaderRedaction`).
    public var journalSecrets = false
    /// Headers redacted besides the usual credential ones (`--redact-header`).
    public var redactedHeaders: [String] = []
    /// When set, admin endpoints (`/__mockapi/…`) need `Mockapi-Admin-Token: <token>`; without
    /// one they answer only requests whose Host is this server's loopback address or localhost,
    /// and not at all when the server listens beyond loopback.
    public var adminToken: String?
    /// Where one line per request goes; nil for none (`--quiet`).
    public var requestLog: RequestLog?

    /// Answer browsers' CORS preflights and let pages read every answer (`--cors`).
    public var cors = false
    /// How long every contract answer waits, unless its response or the request says otherwise.
    public var delay: Latency?
    /// Where the set was loaded from, so `POST /__mockapi/reload` and `reload()` can read it
    /// again; nil for a set built in memory.
    public var reloadSource: (contracts: String, fixtures: String)?

    public init() {}
}
