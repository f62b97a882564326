import CMicroHTTPD
import CMicroHTTPDShims
import Dispatch
import MockAPICore
import Synchronization
import SystemLibc

/// The bridge from libmicrohttpd's C callbacks to the `Responder`.
///
/// MHD calls the access handler several times per request: once with the headers, then with
/// body chunks, then once with none. We answer on that last call: queueing on the first,
/// headers-only call makes MHD 0.9.75 close the connection, and keep-alive is lost.
final class RequestHandler: Sendable {
    /// The current contract set's responder and prepared responses, swapped whole by a reload.
    let serving: ServingStateCell
    /// Shared by every serving state: a reload keeps the journal.
    let journal: RequestJournal
    let configuration: ServerConfiguration
    let suspensions = Suspensions()
    /// Admin actions (reload, record save), one at a time, off the process's shared pool (see `Suspensions.timers`).
    let adminActionQueue = DispatchQueue(label: "mockapi.admin-actions")
    /// JSON bodies held across every connection (`--max-buffered-bytes`).
    let bufferBudget: BufferBudget
    /// Sends requests no contract takes to a real backend; nil unless the server proxies them.
    let forwarder: Forwarder?
    /// Reloads the set from disk; nil for a server started from a set in memory.
    let reload: (@Sendable () -> GeneratedResponse)?
    private let inFlightCounters = InFlightCounters()

    var inFlight: Int { inFlightCounters.total }

    init(
        serving: ServingStateCell, journal: RequestJournal, configuration: ServerConfiguration,
        reload: (@Sendable () -> GeneratedResponse)?
    ) {
        self.serving = serving
        self.journal = journal
        self.configuration = configuration
        self.reload = reload
        bufferBudget = BufferBudget(limit: configuration.maxBufferedBytes)
        forwarder = configuration.proxy.map(Forwarder.init)
    }

    // Both callbacks borrow the handler and the request's context with
    // `_withUnsafeGuaranteedRef`: MHD keeps them alive for the call, so the retain and release
    // `takeUnretainedValue()` costs per use are pure overhead on every request.
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestState in
        guard let cls, let pointer = connection, let requestState, let uploadDataSize else { return .NO }
        let connection = MHDConnection(pointer)
        return Unmanaged<RequestHandler>.fromOpaque(cls)._withUnsafeGuaranteedRef { handler in
            // Before the first call the state is nil, or the query copy `take_query` made (tagged).
            let query = MHDConnection.query(in: requestState.pointee)
            if let existing = requestState.pointee, query == nil {
                // Answered from its head: a plain head declares no body, so this is the last call.
                if let held = MHDConnection.heldWatch(in: existing) { return connection.queueHeldAnswer(held) }
                return Unmanaged<RequestContext>.fromOpaque(existing)._withUnsafeGuaranteedRef { context in
                    // MHD passes the same url on every call of a request: its length was measured
                    // on the first. Its bytes are read in the call, never kept past it.
                    let fullPath = bytes(url, count: context.pathLength)
                    // In a session (`/s/ID/…`) the contracts see the path after its prefix.
                    let path = context.pathOffset == 0 ? fullPath : innerPath(fullPath, offset: context.pathOffset)
                    return handler.continueRequest(context, connection: connection, path: path, data: uploadData, size: uploadDataSize)
                }
            }
            let path = bytes(url)
            let watch = connection.headersArrived()
            // A connection never changes thread: its slot is looked up (a thread-local read) on its
            // first request and kept with its watch; kept in the context for the rest.
            var slot = MHDConnection.slot(watch)
            if slot < 0 {
                slot = ThreadSlot.current
                MHDConnection.keepSlot(slot, watch)
            }
            handler.inFlightCounters.add(1, slot: slot)
            let context: RequestContext
            switch handler.beginRequest(connection: connection, path: path, method: method, version: version, query: query, threadSlot: slot, watch: watch) {
            case .answered(let state):
                // Answered at its head: it had no query to free (`answerAtHead`).
                requestState.pointee = state
                return .YES
            case .context(let begun):
                context = begun
            }
            context.watch = watch
            context.pathLength = path.count
            if let query { free(query) }
            let result = handler.admit(context, connection: connection, path: path)
            // Stored last, so handing the context to MHD is its last use: the retain this takes and
            // the release of the local cancel out. MHD reads the state only in later callbacks.
            requestState.pointee = Unmanaged.passRetained(context).toOpaque()
            return result
        }
    }

    static let completed: MHD_RequestCompletedCallback = { cls, connection, requestState, _ in
        guard let cls, let requestState, let state = requestState.pointee else {
            if let connection { MHDConnection(connection).awaitingHeaders() }
            return
        }
        requestState.pointee = nil
        if let query = MHDConnection.query(in: state) {
            free(query) // the request ended before the access handler saw it (MHD refused it)
            if let connection { MHDConnection(connection).awaitingHeaders() }
            return
        }
        if let held = MHDConnection.heldWatch(in: state) {
            Unmanaged<StateLease>.fromOpaque(CMicroHTTPDShims_release_held_answer(held)).release()
            let slot = MHDConnection.slot(held)
            MHDConnection.awaitingHeaders(held)
            Unmanaged<RequestHandler>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.inFlightCounters.add(-1, slot: slot) }
            return
        }
        let context = Unmanaged<RequestContext>.fromOpaque(state)
        let (slot, watch) = context._withUnsafeGuaranteedRef { ($0.threadSlot, $0.watch) }
        MHDConnection.awaitingHeaders(watch)
        context.release()
        // Completion runs on the connection's own worker thread, the one that counted it in.
        Unmanaged<RequestHandler>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.inFlightCounters.add(-1, slot: slot) }
    }

    /// How a request's head phase ended: with a context for the request's later calls, or with
    /// its answer decided and held (`answerAtHead`), the request state saying so.
    private enum Begun {
        case context(RequestContext)
        case answered(UnsafeMutableRawPointer)
    }

    /// The head phase: the responder routes the head and plans the body; the server keeps what
    /// the plan says. A path in a session (`/s/ID/…`) is routed without its prefix.
    ///
    /// A request that may be answered from its head (`answerAtHead`: no query, outside a session,
    /// no request log) has its headers read in the worker thread's scratch buffer
    /// (`MHDConnection.scratchHeaders`): answered there, it never makes a `HeaderFields` (claiming
    /// the thread slot's buffer for one and counting its references cost about 170 instructions a
    /// request); going on, it makes one from those bytes. Any other request copies its headers
    /// into a `HeaderFields` at once, as does a head too large for the scratch buffer.
    private func beginRequest(
        connection: MHDConnection, path fullPath: UnsafeBufferPointer<UInt8>, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        query: UnsafeMutablePointer<MHDQuery>?, threadSlot: Int, watch: ConnectionWatch?
    ) -> Begun {
        let (methodBytes, knownMethod) = Self.method(method)
        // Unretained: the thread's lease holds the state through this call; the context retains it.
        let lease = serving.lease()
        let state = lease._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.state) }
        let responder = state._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.responder) }
        // The one walk over the headers every request makes is their copy's: it says what
        // `admit` reads of the head (`HeaderFields.HeadScan`, made from it off the plain path).
        var scanned = CMicroHTTPDShims_HeadScan()
        if query == nil, let watch, configuration.requestLog == nil, !Responder.isSessionPath(fullPath),
            let packed = connection.scratchHeaders(scan: &scanned)
        {
            let destination = responder._withUnsafeGuaranteedRef { $0.destination(method: knownMethod, path: fullPath) }
            if case .contract(let index) = destination, CMicroHTTPDShims_head_is_plain(&scanned),
                answerAtHead(
                    contract: index, lease: lease, state: state, method: UnsafeRawBufferPointer(methodBytes), path: fullPath,
                    headers: packed, prefers: scanned.prefers, watch: watch, threadSlot: threadSlot)
            {
                return .answered(CMicroHTTPDShims_held_state(watch))
            }
            return .context(
                context(
                    destination, headers: HeaderFields(packed: packed, spareSlot: threadSlot), scan: Self.headScan(scanned, version: version, query: nil),
                    lease: lease, responder: responder, knownMethod: knownMethod, method: method, query: query, threadSlot: threadSlot, scope: nil,
                    pathOffset: 0))
        }
        let headers = connection.headers(spareSlot: threadSlot, scan: &scanned)
        let scan = Self.headScan(scanned, version: version, query: query)
        var path = fullPath
        var scope: SessionScope?
        var pathOffset = 0
        if Responder.isSessionPath(fullPath) {
            (scope, pathOffset) = responder._withUnsafeGuaranteedRef {
                $0.sessionScope(path: fullPath, headers: headers, namesSession: scan.namesSession, threadSlot: threadSlot)
            }
            path = innerPath(fullPath, offset: pathOffset)
        }
        let destination = responder._withUnsafeGuaranteedRef { $0.destination(method: knownMethod, path: path) }
        return .context(
            context(
                destination, headers: headers, scan: scan, lease: lease, responder: responder, knownMethod: knownMethod, method: method,
                query: query, threadSlot: threadSlot, scope: scope, pathOffset: pathOffset))
    }

    /// The head phase's end for a request that goes on: the rest of its head routed, its query
    /// parsed, and the context that keeps them for its later calls.
    @inline(__always)
    private func context(
        _ destination: Responder.Destination, headers: HeaderFields, scan: HeaderFields.HeadScan, lease: Unmanaged<StateLease>,
        responder: Unmanaged<Responder>, knownMethod: RequestMethod?, method: UnsafePointer<CChar>?, query: UnsafeMutablePointer<MHDQuery>?,
        threadSlot: Int, scope: SessionScope?, pathOffset: Int
    ) -> RequestContext {
        // A known method's name is a static string: no allocation.
        let methodName = knownMethod?.rawValue ?? method.map { String(cString: $0) } ?? "GET"
        let head = responder._withUnsafeGuaranteedRef { $0.route(to: destination, headers: headers) }
        let rawQuery = query.map { UnsafeRawBufferPointer(start: CMicroHTTPDShims_query_bytes($0), count: $0.pointee.length) }
        let arguments = rawQuery.map(QueryString.arguments) ?? []
        // Only a request that will be forwarded keeps its raw query.
        let forwarding = if case .raw = head.body { true } else { false }
        let kept = forwarding ? rawQuery.map { String(decoding: $0, as: UTF8.self) } : nil
        // Consumed: the context takes the head over rather than copying it (a retain and a release per field).
        return RequestContext(
            lease: lease.takeUnretainedValue(), method: methodName, head: consume head, query: arguments, headers: headers, scan: scan, budget: bufferBudget,
            rawQuery: kept, threadSlot: threadSlot, timed: configuration.requestLog != nil, scope: scope, pathOffset: pathOffset)
    }

    /// The method's bytes, and which it is when the server knows it. `GET`, most requests, is
    /// known by one 4-byte load of its name and the NUL after it, with no `strlen` or compare:
    /// the 4 bytes are MHD's copy of the request line, which holds a space (the NUL now) and a
    /// target after any method, however short.
    @inline(__always)
    private static func method(_ method: UnsafePointer<CChar>?) -> (bytes: UnsafeBufferPointer<UInt8>, known: RequestMethod?) {
        if let method, UnsafeRawPointer(method).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x0054_4547) {
            return (bytes(method, count: 3), .GET)
        }
        let named = bytes(method)
        return (named, RequestMethod(bytes: named))
    }

    /// The head's scan as `admit` reads it: what the header copy saw, and what the request line
    /// says (a space in its target, which `take_query` found; a Host it must carry).
    @inline(never)
    private static func headScan(_ scanned: CMicroHTTPDShims_HeadScan, version: UnsafePointer<CChar>?, query: UnsafeMutablePointer<MHDQuery>?)
        -> HeaderFields.HeadScan
    {
        HeaderFields.HeadScan(
            hosts: Int(scanned.hosts), namesSession: scanned.names_session, malformed: scanned.malformed, framed: scanned.framed,
            prefers: scanned.prefers, requiresHost: scanned.hosts == 0 && requiresHost(version),
            targetHasSpace: query?.pointee.target_has_space ?? false)
    }

    /// Whether a request on this protocol version must carry Host (RFC 9112 §3.2): HTTP/1.1 and
    /// later. MHD hands the access handler only `HTTP/1.x` versions it parsed (8 bytes).
    private static func requiresHost(_ version: UnsafePointer<CChar>?) -> Bool {
        guard let version, strlen(version) == 8 else { return true }
        return version[7] != CChar(UInt8(ascii: "0"))
    }

    /// Most mock traffic: a plain head (`HeadScan.isPlain`: no body declared, so none comes) with
    /// no query, outside a session, with no request log, routed to a contract that `plainAnswer`
    /// gives a response prepared at start (`HeadAnswers` holds them, with the names the journal
    /// records). Asked before the rest of the head is routed (`RoutedHead`).
    /// What `continueRequest` would decide on the last call is decided now, journaled now, and
    /// held on the connection's watch for that call to queue: no context is made, kept and
    /// freed. The lease, retained with the answer, keeps the response alive across a reload
    /// until the request ends. False: the request goes on as any other.
    @inline(__always)
    private func answerAtHead(
        contract: Int, lease: Unmanaged<StateLease>, state: Unmanaged<ServingState>, method: UnsafeRawBufferPointer, path: UnsafeBufferPointer<UInt8>,
        headers: UnsafeRawBufferPointer, prefers: Bool, watch: ConnectionWatch, threadSlot: Int
    ) -> Bool {
        guard !prefers, let answer = state._withUnsafeGuaranteedRef({ $0.headAnswers[contract: contract] }) else { return false }
        MHDConnection.answering(watch)
        CMicroHTTPDShims_hold_answer(watch, answer.response, UInt32(answer.status), lease.retain().toOpaque())
        journal.recordAnsweredAtHead(
            receivedAt: System.epochMilliseconds(), method: method, path: UnsafeRawBufferPointer(path), packedHeaders: headers,
            contract: answer.contract, response: answer.responseName, status: answer.status, threadSlot: threadSlot)
        return true
    }

    /// The admit phase: what the responder says of the head alone: read the body (its declared
    /// length reserved from the shared budget first), or answer now. MHD closes the connection
    /// after an answer given on the first call, so the rest of an oversized body is never read.
    ///
    /// A request naming a session by its header is looked up here, where the walk that counts its
    /// `Host` lines saw the header; `admit` answers one naming a session that cannot serve it.
    private func admit(_ context: RequestContext, connection: MHDConnection, path fullPath: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        // Most heads: well formed, one Host, no body framing, no session header, no session
        // refused. `admit` reads the body then, with nothing declared: so say at once.
        if context.scan.isPlain, context.scope == nil || context.withSession({ $0 != nil }) { return .YES }
        let path = Responder.innerPath(fullPath, offset: context.pathOffset)
        let refusal: Decision? = context.withResponder { responder in
            let scan = context.scan
            var refusedSession: GeneratedResponse?
            // A malformed header line is refused before its session is looked for.
            if !scan.malformed {
                if scan.namesSession, context.scope == nil {
                    context.enter(responder.sessionScope(path: path, headers: context.headers, threadSlot: context.threadSlot).scope)
                }
                if case .refused(let response)? = context.scope { refusedSession = response }
            }
            switch responder.admit(context.head, headers: context.headers, scan: scan, refusedSession: refusedSession) {
            case .readBody(let declared):
                guard let declared, !context.reserveDeclaredBody(declared) else { return nil }
                return responder.admit(context.head, refusing: .bufferBudgetFull)
            case .answer(let refusal):
                return refusal
            }
        }
        guard let decision = refusal else { return .YES }
        context.answered = true
        MHDConnection.answering(context.watch)
        return execute(decision, context, connection, path: path)
    }

    /// The body phase, then the decide phase: each chunk kept as the head's plan says (or the body
    /// refused mid-way, `admit(_:refusing:)`), and on the last call the responder's decision for
    /// the whole request executed (or a plain request's prepared answer queued, `plainAnswer`).
    private func continueRequest(
        _ context: RequestContext, connection: MHDConnection, path: UnsafeBufferPointer<UInt8>,
        data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if size.pointee > 0 {
            let count = size.pointee
            size.pointee = 0
            MHDConnection.bodyReceived(count, context.watch)
            if context.answered { return .YES }
            if let discarded = context.discardedPastLimit {
                return discardPastLimit(context, count: count, alreadyDiscarded: discarded, connection: connection, path: path)
            }
            guard context.bodyBytes + count <= context.head.bodyLimit else {
                context.dropBody()
                return discardPastLimit(context, count: count, alreadyDiscarded: 0, connection: connection, path: path)
            }
            guard context.consume(UnsafeRawBufferPointer(start: data, count: count)) else {
                return refuseMidBody(.bufferBudgetFull, context, connection: connection, path: path)
            }
            return .YES
        }
        if let pending = context.pending {
            context.pending = nil
            return answerPending(pending, context, connection: connection, path: path)
        }
        if context.answered { return .YES }
        MHDConnection.answering(context.watch)
        context.answered = true
        // A plain request to a fixed answer (most of them): its prepared response, with no
        // decision to build. Past the body limit, the 413 below.
        if context.discardedPastLimit == nil,
            let (contract, response) = context.withResponder({
                $0.plainAnswer(context.head, query: context.query, bodyBytes: context.bodyBytes, prefers: context.prefers)
            })
        {
            return queuePrepared(contract: contract, response: response, note: JournalNote(contract: contract, response: response), context, connection, path: path)
        }
        let decision = context.withResponder { responder in
            // Queued at the body's end, once the part past the limit has been drained: keep-alive holds.
            if context.discardedPastLimit != nil { return responder.admit(context.head, refusing: .tooLarge) }
            // Out of line: reading the session here (a retain and a release) made this function too
            // large to inline into the access handler, about 70 instructions on every request.
            if context.scope != nil { return Self.decideInSession(context, responder, path: path) }
            return responder.decide(
                context.head, method: context.method, path: path, query: context.query, headers: context.headers,
                prefers: context.prefers, bodyBytes: context.bodyBytes
            ) { context.finishBody() }
        }
        return execute(decision, context, connection, path: path)
    }

    @inline(never)
    private static func decideInSession(_ context: RequestContext, _ responder: Responder, path: UnsafeBufferPointer<UInt8>) -> Decision {
        context.withSession { session in
            responder.decide(
                context.head, method: context.method, path: path, query: context.query, headers: context.headers,
                prefers: context.prefers, bodyBytes: context.bodyBytes, session: session
            ) { context.finishBody() }
        }
    }

    /// A body with no usable length broke its limit mid-way. MHD takes no response until the body
    /// has ended, so the rest is read and dropped, and the 413 queued at its end. A client that
    /// keeps sending past another `--max-body-bytes` gets the 413 written on the socket and the
    /// connection closed: never an unbounded read, never a silent close.
    private func discardPastLimit(
        _ context: RequestContext, count: Int, alreadyDiscarded: Int, connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        let discarded = alreadyDiscarded + count
        context.discardedPastLimit = discarded
        guard discarded > configuration.maxBodyBytes else { return .YES }
        return refuseMidBody(.tooLarge, context, connection: connection, path: path)
    }

    /// An answer decided mid-body, which MHD cannot queue: carried out by `execute` like every
    /// other, written on the socket, journaled, and the connection closed (`Timing.midBody`).
    private func refuseMidBody(
        _ reason: BodyRefusal, _ context: RequestContext, connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        context.answered = true
        MHDConnection.answering(context.watch)
        return execute(context.responder.admit(context.head, refusing: reason).midBody, context, connection, path: path)
    }

    /// Carries out a decision: the only place an answer leaves, so each gets the decision's headers.
    func execute(_ decision: Decision, _ context: RequestContext, _ connection: MHDConnection, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        switch decision.timing {
        case .now:
            break
        case .fault(let fault):
            return executeFault(fault, decision, context, connection, path: path)
        case .after(let milliseconds):
            context.pending = .delayed(decision)
            if suspensions.resume(connection, afterMilliseconds: milliseconds, owner: context.parking) { return .YES }
            context.pending = nil
        case .midBody:
            return sendAndClose(decision, context, connection, path: path)
        }
        switch decision.answer {
        case .prepared(let contract, let response):
            return queuePrepared(contract: contract, response: response, note: decision.journal, context, connection, path: path)
        case .generated(var response):
            // A contract's own refusal from a templated response: its body filled like the answer's.
            if let source = response.placeholdersOf { response.body = rendered(contract: source.contract, response: source.response, context, path: path).body }
            return queue(response, decision, context, connection, path: path)
        case .journal(let query, let lastID, let session):
            let response = JournalStream.response(journal: session?.journal ?? journal, query: query, lastID: lastID, headers: decision.headers)
            defer { MHDResponse.destroy(response) }
            return connection.queue(response, status: 200)
        case .adminAction(let action):
            return startAdminAction(action, decision, context, connection: connection, path: path)
        case .forward:
            return startForwarding(decision, context, connection: connection, path: path)
        }
    }

    /// A made answer written straight on the socket (`RawResponse`), journaled, and the connection
    /// closed: MHD takes the `.NO` as the end of it.
    private func sendAndClose(_ decision: Decision, _ context: RequestContext, _ connection: MHDConnection, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        guard case .generated(let response) = decision.answer else { return .NO }
        let sent = Decision.finished(response, headers: decision.headers)
        // Journaled before it is written, as a queued answer is (libmicrohttpd sends that after
        // this call): a client that reads the answer and then the journal finds the request there.
        record(context, path: path, status: sent.status, note: decision.journal, problem: sent.problem)
        RawResponse.sendAndClose(sent, on: connection)
        return .NO
    }

    /// Queues a response prepared at start (its headers already on it) and journals it as `note` says.
    private func queuePrepared(
        contract index: Int, response: Int, note: JournalNote?, _ context: RequestContext, _ connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        guard
            let (ready, status) = context.withPrepared({ prepared in
                prepared.responseAndStatus(contract: index, response: response, session: context.borrowedSession)
            })
        else {
            // A body with request placeholders ({{path.id}}): rendered for this request.
            return queueFinished(rendered(contract: index, response: response, context, path: path), note: note, context, connection, path: path)
        }
        let result = connection.queue(ready, status: status)
        record(context, path: path, status: status, note: note)
        return result
    }

    /// Contract `index`'s response `response` as the core renders it for this request
    /// (`AnswerRendering`), from the request's values: the server supplies them and sends the result.
    func rendered(contract index: Int, response: Int, _ context: RequestContext, path: UnsafeBufferPointer<UInt8>) -> GeneratedResponse {
        context.prepared.render(
            contract: index, response: response, path: String(decoding: path, as: UTF8.self), query: context.query, body: context.echoBody,
            session: context.session)
    }

    /// Queues a response made for this request, with the decision's headers, and journals it if
    /// the decision says so.
    func queue(
        _ response: GeneratedResponse, _ decision: Decision, _ context: RequestContext, _ connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        queueFinished(Decision.finished(response, headers: decision.headers), note: decision.journal, context, connection, path: path)
    }

    /// Queues a response that carries every header it needs (a rendered one) and journals it as `note` says.
    private func queueFinished(
        _ sent: GeneratedResponse, note: JournalNote?, _ context: RequestContext, _ connection: MHDConnection, path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        let result = connection.queue(sent)
        record(context, path: path, status: sent.status, note: note, problem: sent.problem)
        return result
    }

    /// Journals and logs the request as the note says; nothing for a request with no note (admin).
    func record(_ context: RequestContext, path: UnsafeBufferPointer<UInt8>, status: Int, note: JournalNote?, problem: String? = nil) {
        guard let note else { return }
        if configuration.requestLog != nil {
            let responder = context.responder
            let contractName = note.contract.map { responder.contractName($0) }
            let responseName = note.contract.flatMap { contract in note.response.map { responder.responseName(contract: contract, response: $0) } }
            log(
                RequestRecord(
                    receivedAt: context.receivedAt, method: context.method, query: context.query, headers: context.headers,
                    bodyBytes: context.bodyBytes, parts: context.receivedParts, contract: contractName,
                    response: responseName, status: status, problem: problem), context, path: path)
        }
        // The context's own fields, borrowed, and the names' bytes: no record, no String is made for the journal.
        // The bytes live in the responder's NameBytes, which the context's lease keeps.
        let names = context.withResponder { Unmanaged.passUnretained($0.names) }
        let (contractName, responseName) = names._withUnsafeGuaranteedRef { names in
            (
                note.contract.map { names.contract($0) },
                note.contract.flatMap { contract in note.response.map { names.response(contract: contract, response: $0) } }
            )
        }
        // A session's requests go to its own journal only (`SessionState.journal` says why). The
        // journal chosen unretained, then borrowed for the append: `session?.journal ?? journal`
        // retained and released the journal, and a session borrowed across the append was.
        let target =
            if let session = context.borrowedSession {
                session._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.journal) }
            } else {
                Unmanaged.passUnretained(journal)
            }
        target._withUnsafeGuaranteedRef {
            Self.append(context, to: $0, path: path, status: status, problem: problem, contract: contractName, response: responseName)
        }
    }

    @inline(__always)
    private static func append(
        _ context: RequestContext, to journal: RequestJournal, path: UnsafeBufferPointer<UInt8>, status: Int, problem: String?,
        contract: UnsafeRawBufferPointer?, response: UnsafeRawBufferPointer?
    ) {
        // Spread out, not a `JournaledRequest`: see `RequestJournal.record(receivedAt:…)`.
        journal.record(
            receivedAt: context.receivedAt, method: context.method, path: UnsafeRawBufferPointer(path), query: context.query,
            headers: context.headers, bodyBytes: context.bodyBytes, parts: context.receivedParts, contract: contract,
            response: response, status: status, problem: problem, threadSlot: context.threadSlot)
    }
}

/// The path a session's request is routed by (`Responder.innerPath`), out of line: inlined, it
/// made the access handler too large to take `continueRequest` in, about 70 instructions a request.
@inline(never)
private func innerPath(_ path: UnsafeBufferPointer<UInt8>, offset: Int) -> UnsafeBufferPointer<UInt8> {
    // What `Responder.innerPath` says, here: called across the module, it was a second call.
    guard offset < path.count, let start = path.baseAddress else { return UnsafeBufferPointer(start: Responder.rootPath.utf8Start, count: 1) }
    return UnsafeBufferPointer(start: start + offset, count: path.count - offset)
}

/// A C string's bytes, not copied; empty for nil.
private func bytes(_ text: UnsafePointer<CChar>?) -> UnsafeBufferPointer<UInt8> {
    guard let text else { return UnsafeBufferPointer(start: nil, count: 0) }
    return bytes(text, count: strlen(text))
}

/// The first `count` bytes of a C string whose length is known, not copied; empty for nil.
private func bytes(_ text: UnsafePointer<CChar>?, count: Int) -> UnsafeBufferPointer<UInt8> {
    guard let text else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count)
}
