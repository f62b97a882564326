import CMicroHTTPD
package import MockAPICore
import Synchronization
import SystemLibc

/// A libmicrohttpd server answering from a `Responder`.
///
/// ```swift
/// let set = try ContractSet.load(contracts: contractsURL, fixtures: fixturesURL)
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// let server = try MockServer(set: set, configuration: configuration)
/// print(server.baseURL)   // http://127.0.0.1:PORT
/// server.stop()
/// ```
package final class MockServer: Sendable {
    package let configuration: ServerConfiguration
    /// The port actually bound (the real one when configured with 0).
    package let port: UInt16
    /// `--max-connections`, or fewer when the descriptor limit leaves room for fewer (`DescriptorBudget`).
    package let connectionLimit: Int
    /// Kept across reloads.
    package let journal: RequestJournal
    /// The live sessions (`POST /__mockapi/sessions`); kept across reloads.
    package let sessions: SessionRegistry
    private let handler: RequestHandler
    private let reloader: Reloader
    /// What `GET /__mockapi/ready` answers.
    package let readiness: Readiness
    private let daemon: Mutex<MHDDaemon?>

    /// The responder new requests are answered by (a reload replaces it).
    package var responder: Responder { handler.serving.state.responder }

    /// Requests whose headers have arrived and whose answer has not finished sending.
    package var requestsInFlight: Int { handler.inFlight }

    /// Listening on `::` takes IPv4 connections as well as IPv6 ones (dual stack); every other
    /// address is one family's.
    package var listensOnIPv4AndIPv6: Bool {
        var address = in6_addr()
        guard inet_pton(AF_INET6, configuration.host, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { $0.allSatisfy { $0 == 0 } }
    }

    /// `http://HOST:PORT` (`https` with TLS), with IPv6 hosts in brackets.
    package var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.scheme)://\(host):\(port)"
    }

    /// Starts serving at once; the route table and every fixture response are ready before the
    /// first connection is accepted.
    package init(set: ContractSet, configuration: ServerConfiguration) throws(ServerError) {
        if let problem = configuration.outOfRange { throw .outOfRange(problem) }
        MHDDaemon.returnLargeBlocksWhenFreed()
        self.configuration = configuration
        journal = RequestJournal(
            capacity: configuration.journalCapacity, maxBytes: configuration.journalMaxBytes,
            redaction: configuration.headerRedaction, reserving: true)
        sessions = SessionRegistry(limits: configuration.sessionLimits)
        let adminAccess = AdminAccess(token: configuration.adminToken, listensOnLoopbackOnly: AdminAccess.isLoopback(configuration.host))
        let policy = configuration.servingPolicy
        // Loading until the bodies that need the port are built, below, once the daemon listens.
        readiness = Readiness(.loading)
        let serving = ServingStateCell(
            ServingState(
                responder: Responder(set: set, journal: journal, adminAccess: adminAccess, policy: policy, readiness: readiness, sessions: sessions),
                prepared: PreparedResponses(set: set, extraHeaders: policy.extraHeaders)))
        let reloader = Reloader(
            serving: serving, journal: journal, sessions: sessions, adminAccess: adminAccess, policy: policy, readiness: readiness,
            source: configuration.reloadSource)
        self.reloader = reloader
        var reload: (@Sendable () -> GeneratedResponse)?
        if configuration.reloadSource != nil { reload = { @Sendable in reloader.reloadAnswer() } }
        handler = RequestHandler(serving: serving, journal: journal, configuration: configuration, reload: reload)

        #if os(Linux)
        // epoll named explicitly: with MHD_USE_AUTO (which also resolves to epoll) MHD 0.9.75 misses
        // a client's FIN, so a half-closed connection, answered or not, stayed open until a timeout.
        // Suspend/resume: a delayed answer or a reload parks its connection instead of its thread.
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        #else
        let flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        #endif
        connectionLimit = DescriptorBudget.connectionLimit(wanted: configuration.maxConnections)
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
            // Request line and headers must fit a connection's pool, or MHD answers 414/431. Kept at
            // MHD's 32 KiB deliberately: MHD 0.9.75 zeroes the whole pool before every keep-alive
            // request (64 KiB would cost ~1.5% of GET throughput), and query arguments, which
            // used to exhaust it, no longer live there (`CMicroHTTPDShims_take_query`).
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: RequestHandler.connectionMemory, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerIP, ptr_value: nil),
            // Not MHD's strict mode: its two checks (an HTTP/1.1 request without Host, a space in
            // the target: 400, RFC 9112 §3.2) are made in walks the server makes anyway
            // (`HeadScan`, `CMicroHTTPDShims_take_query`); MHD's searched every request's headers.
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        if configuration.threads > 1 {
            options.insert(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil), at: 0)
        }
        options.insert(contentsOf: configuration.tlsOptions, at: 0)
        let started: MHDDaemon
        do {
            started = try MHDDaemon.start(
                flags: flags | configuration.tlsFlags, host: configuration.host, port: configuration.port, options: options,
                context: Unmanaged.passUnretained(handler).toOpaque(),
                headerTimeoutSeconds: configuration.headerTimeoutSeconds,
                minBodyBytesPerSecond: configuration.minBodyBytesPerSecond,
                bodyRateGraceSeconds: configuration.bodyRateGraceSeconds, plainHTTP: configuration.tls == nil,
                connectionLimit: connectionLimit, perAddressLimit: configuration.maxConnectionsPerIP)
        } catch {
            switch error {
            case .badHost: throw .invalidHost(configuration.host)
            case .failed(let startErrno): throw .startFailed(host: configuration.host, port: configuration.port, errno: startErrno)
            }
        }
        daemon = Mutex(started)
        port = started.port
        // The port is known only now (it may have been 0): bodies with {{baseURL}} are built here.
        reloader.baseURL.withLock { $0 = baseURL }
        sessions.listening(at: baseURL)
        handler.serving.state.prepare(baseURL: baseURL)
        readiness.set(.ready)
    }

    /// Reads the contract files again (`ServerConfiguration.reloadSource`) and serves them if
    /// they are usable; otherwise the set served so far stays, and the problems are returned.
    /// Requests under way finish on the set they began with; none is dropped.
    @discardableResult
    package func reload() -> Result<ContractSet, ContractSetError> {
        reloader.reload()
    }

    /// A reload that failed before `reload()` could run (`serve --openapi --watch`: the document
    /// no longer imports): the previous set stays served, and `/__mockapi/ready` says 503 until
    /// a reload succeeds.
    package func reloadFailedElsewhere() {
        readiness.set(.reloadFailed)
    }


    /// Stops accepting, lets requests in flight finish (up to `grace` seconds), then closes
    /// every connection. Safe to call more than once.
    package func stop(grace: Double = 5) {
        let taken: MHDDaemon? = self.daemon.withLock { handle in
            let current = handle
            handle = nil
            return current
        }
        guard let taken else { return }
        let listener = taken.quiesce()
        if listener >= 0 { close(listener) }
        // Delayed and hanging answers are due now: MHD must not stop with a connection suspended.
        handler.suspensions.resumeAll()
        let deadline = System.monotonicNanoseconds() + UInt64(grace * 1_000_000_000)
        while handler.inFlight > 0, System.monotonicNanoseconds() < deadline {
            usleep(2_000)
        }
        taken.stop()
        // The prepared responses go with the last serving state, after MHD has stopped.
        configuration.requestLog?.flush()
    }

    deinit { stop(grace: 0) }
}
