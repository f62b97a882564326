import CMicroHTTPD
import Dispatch
import MockAPICore
import Synchronization
import SystemLibc

/// Decisions that wait or break on purpose (delays, faults) and admin actions (reload, record
/// save), none of which holds a worker thread: the connection is suspended and the answer queued
/// when it is woken.
extension RequestHandler {
    /// What a suspended request gets once it is woken.
    func answerPending(
        _ pending: PendingAnswer, _ context: RequestContext, connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        if suspensions.wasAbandoned(connection, owner: context.parking) {
            if case .delayed(let decision) = pending {
                record(
                    context, path: path, status: 0, note: decision.journal,
                    problem: "the client closed the connection before the delayed answer was due")
            }
            return .NO
        }
        switch pending {
        case .delayed(let decision):
            return execute(decision.dueNow, context, connection, path: path)
        case .hang:
            return .NO // the client gave up long ago, or the server is stopping: close
        case .deferred(let reply, let decision, let fallback):
            if let body = reply.body.withLock({ $0.take() }), let head = reply.reply.withLock({ $0 }) {
                return queuePassedOn(head, body: body, decision, context, connection, path: path)
            }
            return execute(decision.answered(with: reply.reply.withLock { $0 } ?? fallback), context, connection, path: path)
        }
    }

    /// Breaks the answer as asked; the journal records the fault as the request's problem.
    func executeFault(
        _ fault: Fault, _ decision: Decision, _ context: RequestContext, _ connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        record(context, path: path, status: 0, note: decision.journal, problem: fault.journalProblem)
        let descriptor = connection.descriptor
        switch fault {
        case .empty:
            return .NO
        case .reset:
            // Linger on, for zero seconds: closing then sends a RST instead of a FIN.
            var resetOnClose = linger(l_onoff: 1, l_linger: 0)
            if descriptor >= 0 { setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &resetOnClose, socklen_t(MemoryLayout<linger>.size)) }
            return .NO
        case .garbage:
            let noise = Array("\u{16}\u{03}\u{01}mockapi-fault: these bytes are not HTTP\r\n\r\n".utf8)
            if descriptor >= 0 { _ = noise.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, sendWithoutSIGPIPE) } }
            return .NO
        case .hang:
            context.pending = .hang
            let seconds = Double(configuration.connectionTimeoutSeconds)
            return suspensions.resume(connection, afterMilliseconds: seconds * 1000, owner: context.parking) ? .YES : .NO
        case .trickle:
            guard case .prepared(let contract, let response) = decision.answer else { return .NO }
            let rendered = rendered(contract: contract, response: response, context, path: path)
            context.pending = .hang // once every byte is out, the connection is closed
            guard suspensions.suspend(connection, owner: context.parking) else { return .NO }
            // The body is the prepared response's own bytes, shared (copy-on-write), never copied
            // per connection: a hundred trickles of a 20 MB fixture hold one 20 MB body.
            trickle(TrickleCursor(head: RawResponse.head(rendered), body: rendered.body), to: connection, owner: context.parking)
            return .YES
        }
    }

    /// Writes a tenth of a second's worth of the answer every tenth of a second, on a timer, while
    /// the connection is parked; wakes it (to be closed) when all is out or the client is gone.
    private func trickle(_ cursor: TrickleCursor, to connection: MHDConnection, owner: ParkingOwner) {
        let slice = max(1, Fault.trickleBytesPerSecond / 10)
        suspensions.timers.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            var cursor = cursor
            var failed = false
            let parked = suspensions.whileParked(connection, owner: owner) {
                let written = cursor.next(slice) { connection.send($0.baseAddress, count: $0.count) }
                if written <= 0, errno != EAGAIN, errno != EINTR { failed = true }
            }
            guard parked else { return } // the server is stopping, or the client left: woken already
            if !cursor.isDone, !failed { return trickle(cursor, to: connection, owner: owner) }
            suspensions.resume(connection, owner: owner)
        }
    }

    /// An admin action (`POST /__mockapi/reload`, `POST /__mockapi/record/save`), run off the worker
    /// threads while the connection is parked; its answer is queued when it is woken.
    func startAdminAction(
        _ action: AdminAction, _ decision: Decision, _ context: RequestContext, connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        let run: (@Sendable () -> GeneratedResponse)? =
            switch action {
            case .reload: reload
            case .configured(let key): configuration.adminActions[key]
            }
        guard let run else { return .NO } // the responder offers only the actions this server has
        return park(
            context, connection: connection, path: path, decision: decision,
            fallback: GeneratedResponse(status: 503, json: ["error": "the server stopped first"])
        ) { reply, wake in
            adminActionQueue.async {
                let result = run()
                reply.reply.withLock { $0 = result }
                wake()
            }
        }
    }

    /// Suspends the connection until `start`'s work fills in the reply and calls `wake`; answers
    /// 503 at once when the server is stopping and cannot park it.
    func park(
        _ context: RequestContext, connection: MHDConnection, path: UnsafeBufferPointer<UInt8>, decision: Decision,
        fallback: GeneratedResponse, start: (DeferredReply, @escaping @Sendable () -> Void) -> Void
    ) -> MHD_Result {
        let reply = DeferredReply()
        context.pending = .deferred(reply, decision, fallback: fallback)
        guard suspensions.suspend(connection, owner: context.parking) else {
            context.pending = nil
            return execute(decision.answered(with: GeneratedResponse(status: 503, json: ["error": "the server is stopping"])), context, connection, path: path)
        }
        let owner = context.parking
        // Only this request's connection: if its client left, MHD may have handed the pointer to another.
        start(reply) { [self] in suspensions.resume(connection, owner: owner) }
        return .YES
    }
}

/// Where a trickled answer has got to: its head, then its body, both sent from shared storage.
struct TrickleCursor: Sendable {
    let head: [UInt8]
    let body: [UInt8]
    private var sent = 0

    init(head: [UInt8], body: [UInt8]) {
        self.head = head
        self.body = body
    }

    var isDone: Bool { sent >= head.count + body.count }

    /// Hands `write` up to `count` unsent bytes (from the head or the body, never both) and
    /// counts what it reports written; returns that.
    mutating func next(_ count: Int, write: (UnsafeRawBufferPointer) -> Int) -> Int {
        let written: Int
        if sent < head.count {
            let end = min(head.count, sent + count)
            written = head[sent..<end].withUnsafeBytes(write)
        } else {
            let start = sent - head.count, end = min(body.count, start + count)
            guard start < end else { return 0 }
            written = body[start..<end].withUnsafeBytes(write)
        }
        if written > 0 { sent += written }
        return written
    }
}
