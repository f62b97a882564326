import ArgumentParser
import MockAPIVerifyCommand
import Foundation
import MockAPICore
import MockAPIServer

extension MockAPICommand {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the contract set over HTTP until SIGINT or SIGTERM."
        )

        @OptionGroup var contractOptions: ContractOptions

        @Option(help: ArgumentHelp("Serve this OpenAPI 3.0/3.1 document (JSON or YAML) instead of a contract set: it is imported at start, its warnings printed; with --watch, an edit to it or to a file its $refs reach is imported again.", valueName: "file"))
        var openapi: String?

        @Option(help: "Address to listen on: an IPv4 or IPv6 literal, or a name such as localhost (default: 127.0.0.1, or $MOCKAPI_HOST).")
        var host: String?

        // Text, taken as given: `--port -1` is a bad port, not a missing value (see listenPort).
        @Option(name: [.short, .long], parsing: .unconditional, help: "Port to listen on; 0 picks a free one (default: 8080, or $MOCKAPI_PORT).")
        var port: String?

        @Option(help: "Largest request body accepted, in bytes; larger ones get 413.")
        var maxBodyBytes = 32 * 1024 * 1024

        @Option(help: "Largest JSON request body accepted, in bytes (JSON is buffered whole to be checked); larger ones get 413.")
        var maxJsonBytes = 1024 * 1024

        @Option(help: "Bytes of JSON bodies held at once across all connections; a body past it gets 503.")
        var maxBufferedBytes = 64 * 1024 * 1024

        @Option(help: "Bytes per second a request body must average, from 2 s after its headers; a slower one gets 408 and is closed (0: no minimum).")
        var minBodyRate = 1_024

        @Option(help: "Seconds before an idle connection is closed.")
        var timeout = 30

        @Option(help: "Most connections open at once.")
        var maxConnections = 1024

        @Option(help: "Most connections open at once from one client address.")
        var maxConnectionsPerIp = 256

        @Option(help: "Seconds a connection may take to send a request's headers, however slowly they trickle in (0: no limit).")
        var headerTimeout = 10

        @Option(help: "Worker threads (default: one per core).")
        var threads: Int?

        @Option(help: "Requests the journal keeps (GET /__mockapi/requests).")
        var journalSize = 10_000

        @Option(help: "Bytes of requests the journal keeps at most; the oldest go first.")
        var journalBytes = 64 * 1024 * 1024

        @Flag(help: "Journal and log credential headers as sent (Authorization, Cookie, *token*, *secret*, *api-key*…: redacted by default).")
        var journalSecrets = false

        @Option(name: .customLong("redact-header"),
                help: ArgumentHelp("Also redact this request header in the journal and log; repeatable (and $MOCKAPI_REDACT_HEADERS, comma-separated).",
                                   valueName: "name"))
        var redactHeaders: [String] = []

        @Option(help: "Admin endpoints (/__mockapi/) need the header Mockapi-Admin-Token with this value.")
        var adminToken: String?

        @Flag(help: "No per-request log lines on stderr.")
        var quiet = false

        @Flag(help: "Reload the set when a contract or fixture changes, or the --openapi document (a broken edit keeps the previous set serving).")
        var watch = false

        @Option(help: "Delay every contract answer, in milliseconds: 800, a range 200-800, or lognormal:MEDIAN:SIGMA.")
        var delay: String?

        @Option(help: "The longest delay served, in milliseconds (up to 3600000): a Prefer: delay above it gets 422, longer contract delays are cut to it.")
        var maxDelay = Int(Latency.defaultCeilingMilliseconds)

        @Flag(help: "Answer CORS preflights and add Access-Control-Allow-Origin: * to every answer, for pages in a browser.")
        var cors = false

        @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
        var tlsCert: String?

        @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
        var tlsKey: String?

        @Flag(help: "Serve HTTPS with a certificate for localhost and 127.0.0.1 made at start (with openssl); its path is printed.")
        var tlsSelfSigned = false

        @Option(help: "Request log lines on stderr: text, or json (one object per line).")
        var logFormat: RequestLogOptions.Format = .text

        @Flag(help: "Log each request's headers (and the headers its response sets) under its line.")
        var verbose = false

        @Option(help: ArgumentHelp("Send requests no contract matches to this backend (http or https) and return its answer, instead of a 404; they are journaled as proxied, so coverage reports them as uncovered.", valueName: "url"))
        var proxyUnmatched: String?

        @Option(help: ArgumentHelp("PEM file of the CAs to trust for an HTTPS --proxy-unmatched backend (default: the system's).", valueName: "file"))
        var proxyCaFile: String?

        @Option(help: "Seconds a --proxy-unmatched backend may take to answer before the client gets 504 (1 to 3600).")
        var proxyTimeout = 30

        func validate() throws {
            if openapi != nil, givesContractFolders {
                Output.error("mockapi: --openapi serves the document itself; it cannot be used with --contracts or --fixtures")
                throw ExitCode(2)
            }
            _ = try listenPort()
            try validateTLS()
            guard adminToken.map({ !$0.isEmpty }) ?? true else { throw ValidationError("--admin-token must not be empty") }
            if let proxyUnmatched { try BackendURL.check(proxyUnmatched, flag: "--proxy-unmatched", caFile: proxyCaFile) }
            guard (1...3600).contains(proxyTimeout) else {
                Output.error("mockapi: --proxy-timeout \(proxyTimeout) is out of range: 1 to 3600 seconds")
                throw ExitCode(2)
            }
            if let delay, Latency(delay) == nil {
                Output.error("mockapi: --delay \(delay): expected \(Latency.expected(within: .delayMilliseconds))")
                throw ExitCode(2)
            }
            // Every number against its range, in the one table the server checks too.
            if let problem = numericConfiguration(ServerConfiguration()).outOfRange {
                Output.error("mockapi: \(problem)")
                throw ExitCode(2)
            }
        }

        /// `configuration` with every numeric flag applied.
        private func numericConfiguration(_ configuration: ServerConfiguration) -> ServerConfiguration {
            var configuration = configuration
            configuration.maxBodyBytes = maxBodyBytes
            configuration.maxJSONBytes = maxJsonBytes
            configuration.maxBufferedBytes = maxBufferedBytes
            configuration.minBodyBytesPerSecond = minBodyRate
            configuration.connectionTimeoutSeconds = timeout
            configuration.maxConnections = maxConnections
            configuration.maxConnectionsPerIP = maxConnectionsPerIp
            configuration.headerTimeoutSeconds = headerTimeout
            configuration.threads = threads ?? System.coreCount
            configuration.journalCapacity = journalSize
            configuration.journalMaxBytes = journalBytes
            configuration.maxDelayMilliseconds = Double(maxDelay)
            configuration.delay = delay.flatMap { Latency($0) }
            return configuration
        }

        func run() throws {
            // Before loading, which can take long for a big set: Ctrl-C must work during it too.
            StopSignals.startWatching()
            let document = try openapi.map(Self.importDocument)
            defer { document?.remove() }
            var contractOptions = contractOptions
            if let document {
                contractOptions.contracts = document.contracts
                contractOptions.fixtures = document.fixtures
            }
            let set = try contractOptions.load()
            let host: String
            do {
                host = try ListenAddress.resolve(listenHost)
            } catch {
                Output.error("mockapi: \(error.description)")
                throw ExitCode(2)
            }

            let tls = try loadTLS()
            defer { tls?.generated?.remove() }

            var configuration = numericConfiguration(ServerConfiguration())
            configuration.host = host
            configuration.tls = tls?.credentials
            configuration.port = try listenPort()
            configuration.journalSecrets = journalSecrets
            configuration.redactedHeaders = redactedHeaders
            configuration.adminToken = adminToken
            configuration.requestLog = quiet ? nil : RequestLog(options: RequestLogOptions(
                format: logFormat, colour: logFormat == .text && TerminalColour.onStandardError, verbose: verbose))
            configuration.cors = cors
            configuration.reloadSource = (contractOptions.contracts, contractOptions.fixtures)
            configuration.proxy = proxyUnmatched.map { target in
                var proxy = ProxyConfiguration(target: target, caFile: proxyCaFile)
                proxy.timeoutSeconds = proxyTimeout
                return proxy
            }

            let server: MockServer
            do {
                server = try MockServer(set: set, configuration: configuration)
            } catch {
                Output.error("mockapi: \(error.description)")
                throw ExitCode(2)
            }
            StopSignals.beginServing()
            // Watching before the listening line: a client that edits once it reads that line is seen.
            let stopWatching: (() -> Void)?
            if !watch {
                stopWatching = nil
            } else if let document {
                stopWatching = Self.watch(document, server).stop
            } else {
                stopWatching = watchForChanges(server, contractOptions).stop
            }
            Output.line("mockapi listening on \(server.baseURL) (\(set.contracts.count) routes\(server.listensOnIPv4AndIPv6 ? ", IPv4 and IPv6" : ""))")
            if let generated = tls?.generated {
                Output.line("mockapi: self-signed certificate for localhost and 127.0.0.1 (30 days, removed at exit): \(generated.certificate.path)")
            }
            if !AdminAccess.isLoopback(host) {
                Output.error("mockapi: warning: listening on \(host), beyond loopback: anyone who can reach this machine can use the mock; "
                    + (adminToken == nil ? "admin endpoints are off without --admin-token" : "admin endpoints need Mockapi-Admin-Token"))
            }
            let received = StopSignals.wait()
            stopWatching?()
            server.stop()
            Output.error("mockapi: \(received), stopped")
        }

        /// Reloads on every change under the contract and fixture folders, saying what happened.
        private func watchForChanges(_ server: MockServer, _ contractOptions: ContractOptions) -> ContractWatcher {
            Output.error("mockapi: watching \(contractOptions.contracts)/ and \(contractOptions.fixtures)/ for changes")
            return ContractWatcher(folders: [contractOptions.contracts, contractOptions.fixtures]) {
                switch server.reload() {
                case .success(let set):
                    Output.error("mockapi: reloaded (\(set.contracts.count) routes)")
                case .failure(let error):
                    Output.error(error.description + "\nmockapi: still serving the previous set")
                }
            }
        }
    }
}
