import ArgumentParser
import MockAPICommandKit
import MockAPICore
import MockAPIServer
import SystemLibc

/// `serve`'s flags for how the server listens, what it tolerates and what it logs: they yield a
/// `ServerConfiguration` (`configuration()`), and every default is that type's own. In groups, so
/// `serve --help` reads as sections rather than one list of 30 flags.
struct ServerOptions: ParsableArguments {
    static let defaults = ServerConfiguration()

    @OptionGroup(title: "Listening") var listening: ListenOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Answers") var answers: AnswerOptions
    @OptionGroup(title: "Journal, log and admin endpoints") var journal: JournalOptions

    /// Every flag against its rule, in the order a user meets them; `CommandFailure`s.
    func check() throws {
        _ = try listening.address.listenPort()
        try checkTLS()
        try journal.access.check()
        try answers.forward.check(backend: answers.proxyUnmatched, flag: "--proxy-unmatched")
        if let delay = answers.delay, Latency(delay) == nil {
            throw CommandFailure.unusable("--delay \(delay): expected \(Latency.expected(within: .delayMilliseconds))")
        }
        // Every number against its range, in the one table the server checks too.
        if let problem = numericConfiguration().outOfRange { throw CommandFailure.unusable(problem) }
    }

    /// The defaults with every numeric flag applied.
    private func numericConfiguration() -> ServerConfiguration {
        var configuration = Self.defaults
        configuration.maxBodyBytes = limits.maxBodyBytes
        configuration.maxJSONBytes = limits.maxJsonBytes
        configuration.maxBufferedBytes = limits.maxBufferedBytes
        configuration.minBodyBytesPerSecond = limits.minBodyRate
        configuration.connectionTimeoutSeconds = limits.timeout
        configuration.maxConnections = limits.maxConnections
        configuration.maxConnectionsPerIP = limits.maxConnectionsPerIp
        configuration.headerTimeoutSeconds = limits.headerTimeout
        configuration.threads = limits.threads ?? configuration.threads
        configuration.journalCapacity = journal.journalSize
        configuration.journalMaxBytes = journal.journalBytes
        configuration.maxDelayMilliseconds = Double(answers.maxDelay)
        configuration.maxSessions = journal.maxSessions
        configuration.sessionIdleTimeoutSeconds = journal.sessionIdleTimeout
        configuration.delay = answers.delay.flatMap { Latency($0) }
        return configuration
    }

    /// The configuration the flags ask for, listening on `host` (resolved) with `tls`.
    func configuration(host: String, tls: TLSCredentials?) throws -> ServerConfiguration {
        var configuration = numericConfiguration()
        configuration.host = host
        configuration.tls = tls
        configuration.port = try listening.address.listenPort()
        configuration.journalSecrets = journal.journalSecrets
        configuration.redactedHeaders = redactedHeaders
        configuration.adminToken = journal.access.adminToken
        configuration.requestLog =
            journal.access.quiet
            ? nil
            : RequestLog(
                options: RequestLogOptions(
                    format: journal.logFormat, color: journal.logFormat == .text && TerminalColor.allowed(on: STDERR_FILENO), verbose: journal.verbose))
        configuration.cors = answers.cors
        configuration.proxy = answers.proxyUnmatched.map(answers.forward.proxy(to:))
        return configuration
    }
}

/// Where the server listens, and over what.
struct ListenOptions: ParsableArguments {
    @OptionGroup var address: ListenAddressOptions

    @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Flag(help: "Serve HTTPS with a certificate for localhost and 127.0.0.1 made at start (with openssl); its path is printed.")
    var tlsSelfSigned = false
}

/// What the server tolerates from clients: sizes, rates, connections, time.
struct LimitOptions: ParsableArguments {
    private static var defaults: ServerConfiguration { ServerOptions.defaults }

    @Option(parsing: .unconditional, help: "Largest request body accepted, in bytes; larger ones get 413.")
    var maxBodyBytes = defaults.maxBodyBytes

    @Option(parsing: .unconditional, help: "Largest JSON request body accepted, in bytes (JSON is buffered whole to be checked); larger ones get 413.")
    var maxJsonBytes = defaults.maxJSONBytes

    @Option(parsing: .unconditional, help: "Bytes of JSON bodies held at once across all connections; a body past it gets 503.")
    var maxBufferedBytes = defaults.maxBufferedBytes

    @Option(parsing: .unconditional, help: "Bytes per second a request body must average, from 2 s after its headers; a slower one gets 408 and is closed (0: no minimum).")
    var minBodyRate = defaults.minBodyBytesPerSecond

    @Option(parsing: .unconditional, help: "Seconds before an idle connection is closed.")
    var timeout = defaults.connectionTimeoutSeconds

    @Option(parsing: .unconditional, help: "Most connections open at once.")
    var maxConnections = defaults.maxConnections

    @Option(parsing: .unconditional, help: "Most connections open at once from one client address.")
    var maxConnectionsPerIp = defaults.maxConnectionsPerIP

    @Option(parsing: .unconditional, help: "Seconds a connection may take to send a request's headers, however slowly they trickle in (0: no limit).")
    var headerTimeout = defaults.headerTimeoutSeconds

    @Option(parsing: .unconditional, help: "Worker threads (default: one per core).")
    var threads: Int?
}

/// How contract answers are served: delays, CORS, and where unmatched requests go.
struct AnswerOptions: ParsableArguments {
    private static var defaults: ServerConfiguration { ServerOptions.defaults }

    @Option(help: "Delay every contract answer, in milliseconds: 800, a range 200-800, or lognormal:MEDIAN:SIGMA.")
    var delay: String?

    @Option(parsing: .unconditional, help: "The longest delay served, in milliseconds (up to 3600000): a Prefer: delay above it gets 422, longer contract delays are cut to it.")
    var maxDelay = Int(defaults.maxDelayMilliseconds)

    @Flag(help: "Answer CORS preflights and add Access-Control-Allow-Origin: * to every answer, for pages in a browser.")
    var cors = false

    @Option(
        help: ArgumentHelp(
            "Send requests no contract matches to this backend (http or https) and return its answer, instead of a 404; they are journaled as proxied, so coverage reports them as uncovered.",
            valueName: "url"))
    var proxyUnmatched: String?

    @OptionGroup var forward: ForwardOptions
}

/// What is kept and said of each request, and who may read it.
struct JournalOptions: ParsableArguments {
    private static var defaults: ServerConfiguration { ServerOptions.defaults }

    @Option(parsing: .unconditional, help: "Requests the journal keeps (GET /__mockapi/requests).")
    var journalSize = defaults.journalCapacity

    @Option(parsing: .unconditional, help: "Bytes of requests the journal keeps at most; the oldest go first.")
    var journalBytes = defaults.journalMaxBytes

    @Option(
        parsing: .unconditional,
        help: "Sessions alive at once (POST /__mockapi/sessions; its own sequences, resources and journal); past it, 429 with Retry-After.")
    var maxSessions = defaults.maxSessions

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds without a request after which a session ends (up to 86400).", valueName: "seconds"))
    var sessionIdleTimeout = defaults.sessionIdleTimeoutSeconds

    @Flag(help: "Journal and log credential headers as sent (Authorization, Cookie, *token*, *secret*, *api-key*…: redacted by default).")
    var journalSecrets = false

    @Option(
        name: .customLong("redact-header"),
        help: ArgumentHelp(
            "Also redact this request header in the journal and log; repeatable (and $MOCKAPI_REDACT_HEADERS, comma-separated).",
            valueName: "name"))
    var redactHeaders: [String] = []

    @OptionGroup var access: ServerAccessOptions

    @Option(help: "Request log lines on stderr: text, or json (one object per line).")
    var logFormat: RequestLogOptions.Format = .text

    @Flag(help: "Log each request's headers (and the headers its response sets) under its line.")
    var verbose = false
}
