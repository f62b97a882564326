package import MockAPICore

/// How a `MockServer` listens and what it tolerates.
public struct ServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal; `127.0.0.1` keeps the mock off the network.
    public var host = "127.0.0.1"
    /// 0 picks a free port; read the real one from `MockServer.port`.
    public var port: UInt16 = 8080
    /// HTTPS with this certificate and key; nil for plain HTTP.
    package var tls: TLSCredentials?
    /// The settings the responder decides answers with (sizes, CORS, delays), stored once there
    /// with their defaults; the properties below read and write them.
    package var serving = ServingPolicy()
    /// Bodies larger than this get a 413.
    public var maxBodyBytes: Int {
        get { serving.maxBodyBytes }
        set { serving.maxBodyBytes = newValue }
    }
    /// JSON bodies are buffered whole to be parsed, so they get a 413 past this smaller limit.
    public var maxJSONBytes: Int {
        get { serving.maxJSONBytes }
        set { serving.maxJSONBytes = newValue }
    }
    /// Bytes of JSON bodies held at once across every connection; a body that would pass it gets
    /// a 503, so many connections each sending a large body cannot eat the machine's memory.
    public var maxBufferedBytes: Int {
        get { serving.maxBufferedBytes }
        set { serving.maxBufferedBytes = newValue }
    }
    /// A request body must arrive at this many bytes per second on average, after a grace of
    /// `bodyRateGraceSeconds` from its headers; a slower one is answered 408 and closed (0: no minimum).
    public var minBodyBytesPerSecond = 1_024
    public var bodyRateGraceSeconds = 2
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
    public var journalCapacity = RequestJournal.defaultCapacity
    /// Bytes of records the journal keeps at most (the oldest go first).
    public var journalMaxBytes = RequestJournal.defaultMaxBytes
    /// Sessions alive at once (`POST /__mockapi/sessions` answers 429 past it).
    public var maxSessions = SessionRegistry.Limits.defaultMaxSessions
    /// Seconds without a request after which a session is gone.
    public var sessionIdleTimeoutSeconds = SessionRegistry.Limits.defaultIdleTimeoutSeconds
    /// Journal and log credential headers as sent instead of redacted (`HeaderRedaction`).
    public var journalSecrets = false
    /// Headers redacted besides the usual credential ones (`--redact-header`).
    public var redactedHeaders: [String] = []
    /// When set, admin endpoints (`/__mockapi/…`) need `Mockapi-Admin-Token: <token>`; without
    /// one they answer only requests whose Host is this server's loopback address or localhost,
    /// and not at all when the server listens beyond loopback.
    public var adminToken: String?
    /// Where one line per request goes; nil for none (`--quiet`).
    package var requestLog: RequestLog?

    /// Answer browsers' CORS preflights and let pages read every answer (`--cors`).
    public var cors: Bool {
        get { serving.cors }
        set { serving.cors = newValue }
    }
    /// How long every contract answer waits, unless its response or the request says otherwise.
    package var delay: Latency? {
        get { serving.delay }
        set { serving.delay = newValue }
    }
    /// The longest any answer waits, in milliseconds: a `Prefer: delay=` above it is refused (422),
    /// a response's `delay` and a log-normal's tail are cut to it.
    public var maxDelayMilliseconds: Double {
        get { serving.maxDelayMilliseconds }
        set { serving.maxDelayMilliseconds = newValue }
    }
    /// Where the set was loaded from, so `POST /__mockapi/reload` and `reload()` can read it
    /// again; nil for a set built in memory.
    package var reloadSource: (contracts: String, fixtures: String)?
    /// Where requests no contract takes go instead of a 404 (`--proxy-unmatched`, `record`).
    package var proxy: ProxyConfiguration?
    /// Admin endpoints of the command that runs the server (`POST /__mockapi/record/save`), keyed by
    /// `METHOD /path`; each runs off the worker threads, guarded like every admin endpoint.
    package var adminActions: [String: @Sendable () -> GeneratedResponse] = [:]

    public init() {}
}

extension ServerConfiguration {
    /// The sessions' bounds, and their journals' share of the journal's (`SessionRegistry.Limits`).
    var sessionLimits: SessionRegistry.Limits {
        SessionRegistry.Limits(
            maxSessions: maxSessions, idleTimeoutSeconds: sessionIdleTimeoutSeconds, journalCapacity: journalCapacity,
            journalMaxBytes: SessionRegistry.Limits.sessionJournalBytes(total: journalMaxBytes, maxSessions: maxSessions),
            redaction: headerRedaction)
    }

    /// The settings the responder decides answers with: `serving`, and what the rest of the
    /// configuration implies.
    var servingPolicy: ServingPolicy {
        var policy = serving
        policy.forwardsUnmatched = proxy != nil
        policy.canReload = reloadSource != nil
        policy.adminActions = Set(adminActions.keys)
        return policy
    }

    /// Each number in the configuration with the flag that sets it and the range it must keep.
    var numbers: [(flag: String, value: Double, range: NumberRange)] {
        [
            ("--timeout", Double(connectionTimeoutSeconds), .timeoutSeconds),
            ("--header-timeout", Double(headerTimeoutSeconds), .headerTimeoutSeconds),
            ("--max-body-bytes", Double(maxBodyBytes), .bytes),
            ("--max-json-bytes", Double(maxJSONBytes), .bytes),
            ("--max-buffered-bytes", Double(maxBufferedBytes), .bytes),
            ("--min-body-rate", Double(minBodyBytesPerSecond), .bodyRate),
            ("bodyRateGraceSeconds", Double(bodyRateGraceSeconds), .headerTimeoutSeconds),
            ("--max-connections", Double(maxConnections), .connections),
            ("--max-connections-per-ip", Double(maxConnectionsPerIP), .connections),
            ("--threads", Double(threads), .threads),
            ("--journal-size", Double(journalCapacity), .journalEntries),
            ("--journal-bytes", Double(journalMaxBytes), .bytes),
            ("--max-delay", maxDelayMilliseconds, .delayMilliseconds),
            ("--max-sessions", Double(maxSessions), .sessions),
            ("--session-idle-timeout", Double(sessionIdleTimeoutSeconds), .sessionIdleSeconds),
        ]
    }

    /// The first setting out of its range, said as the flag, the value and the range
    /// ("--header-timeout 5000000000 is out of range: 0 to 86400 seconds"); nil when all are fine.
    package var outOfRange: String? {
        for number in numbers where !number.range.contains(number.value) {
            let value = number.value == number.value.rounded() && abs(number.value) < 1e18 ? String(Int(number.value)) : String(number.value)
            return number.range.refusal("\(number.flag) \(value)")
        }
        if let delay, delay.largestMilliseconds > maxDelayMilliseconds {
            return
                "--delay asks for up to \(Int(delay.largestMilliseconds)) ms, above --max-delay \(Int(maxDelayMilliseconds)) ms (raise --max-delay, up to \(Int(NumberRange.delayMilliseconds.highest)))"
        }
        if maxBufferedBytes < maxJSONBytes {
            return "--max-buffered-bytes \(maxBufferedBytes) is below --max-json-bytes \(maxJSONBytes): no JSON body of the largest size could be read"
        }
        return nil
    }
}
