import CMicroHTTPD
import Dispatch
import MockAPICore
import Synchronization

/// Requests no contract takes, sent to the real backend (`--proxy-unmatched`, `record`). None
/// holds a worker thread: the connection is suspended until the answer is in.
extension RequestHandler {
    /// Answers sent on from the target lose the headers that belong to its connection, and the
    /// ones libmicrohttpd writes itself.
    static let answerHeadersDropped: Set<String> = Forwarder.hopByHop.union(["date"])

    /// libmicrohttpd's memory per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): the request's
    /// head and the answer's head must fit in it together.
    static let connectionMemory = 32 * 1024

    /// What a request's head takes of its connection's memory, near enough: its bytes plus, per
    /// header, the record libmicrohttpd keeps (measured: about 64 bytes), and the request line.
    static func headFootprint(packedHeaderBytes: Int, headerCount: Int, target: String) -> Int {
        packedHeaderBytes + 72 * headerCount + target.utf8.count + 64
    }

    /// Why an answer head cannot be sent on beside the request's, or nil. libmicrohttpd writes the
    /// head from the connection's memory; when it does not fit there, it closes the connection
    /// without a byte (and the log would say the backend's status), so the client gets a 502.
    static func headTooLarge(_ headers: [HTTPField], contentType: String, requestFootprint: Int) -> String? {
        // The status line, Date, Connection and Content-Length, which libmicrohttpd adds.
        let answerHead = headers.reduce(128 + contentType.utf8.count) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        // A margin for what libmicrohttpd keeps besides the two heads.
        guard requestFootprint + answerHead > connectionMemory - 1024 else { return nil }
        return "its answer's headers (\(answerHead) bytes) do not fit beside the request's in a connection's \(connectionMemory / 1024) KiB"
    }

    func startForwarding(_ decision: Decision, _ context: RequestContext, connection: MHDConnection, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        guard let forwarder else { return .NO } // the responder forwards only on a server that proxies
        if let refusal = Self.notOriginForm(path) {
            let refused = GeneratedResponse(
                status: 400, json: ["error": .string("only origin-form request targets (/path?query) are forwarded: \(refusal)")],
                problem: "not forwarded: \(refusal)")
            return queue(refused, decision, context, connection, path: path)
        }
        let pathText = Self.percentEncodedPath(path)
        let pathAndQuery = pathText + (context.rawQuery.map { "?" + $0 } ?? "")
        let headers = context.headers.fields
        let requestFootprint = Self.headFootprint(
            packedHeaderBytes: context.headers.packedByteCount, headerCount: headers.count, target: pathAndQuery)
        let request = Forwarder.Request(method: context.method, pathAndQuery: pathAndQuery, headers: headers, body: context.rawBody)
        let journaledHeaders = configuration.journalSecrets ? headers : context.headers.forJournal(keepingSecrets: false).fields
        let redactedHeaders = configuration.journalSecrets ? [] : headers.filter { HeaderRedaction.standard.redacts($0.name) }
        let target = forwarder.configuration.target
        let keep = forwarder.configuration.observer == nil ? 0 : forwarder.configuration.maxRecordedBodyBytes
        let suspensions = suspensions
        let fallback = GeneratedResponse(status: 502, json: ["error": "the server stopped first"])
        return park(context, connection: connection, path: path, decision: decision, fallback: fallback) { reply, wake in
            /// The answer as the client gets it, from the target's head, or a 502 when that head cannot be sent on.
            @Sendable func sentOn(_ head: Forwarder.Head) -> (GeneratedResponse, refused: Bool) {
                let contentType = head.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
                let named = Forwarder.connectionOptions(head.headers)
                let kept = head.headers.filter { header in
                    let name = header.name.lowercased()
                    return !Self.answerHeadersDropped.contains(name) && !named.contains(name) && name != "content-type"
                }
                if let tooLarge = Self.headTooLarge(kept, contentType: contentType, requestFootprint: requestFootprint) {
                    let refusal = GeneratedResponse(
                        status: 502, json: ["error": .string("\(target) answered \(request.method) \(pathAndQuery) with \(head.status), but \(tooLarge)")],
                        problem: "proxied to \(target): \(tooLarge)")
                    return (refusal, true)
                }
                var generated = GeneratedResponse(
                    status: head.status, contentType: contentType, body: [], headers: kept,
                    problem: "no contract matches \(request.method) \(pathText); proxied to \(target)")
                generated.framing = Self.framing(of: head, method: request.method)
                return (generated, false)
            }
            forwarder.send(request, keep: keep) { head, stream in
                // A `HEAD`'s, a 204's or a 304's body is never sent: the exchange ends, and `done` answers.
                guard request.method != "HEAD", head.status != 204, head.status != 304 else { return .finish }
                let (generated, refused) = sentOn(head)
                reply.reply.withLock { $0 = generated }
                if refused {
                    wake()
                    return .refuse
                }
                let body = PassedOnBody(stream, length: Self.statedLength(of: head.headers), connection: connection, suspensions: suspensions)
                let readable = body.readable
                reply.body.withLock { $0 = body }
                wake()
                return .passOn(readable: readable)
            } done: { answer in
                if !answer.passedOn, !answer.refused {
                    let generated: GeneratedResponse
                    if let error = answer.error {
                        generated = GeneratedResponse(
                            status: error.contains("imeout") ? 504 : 502,
                            json: ["error": .string("\(target) did not answer \(request.method) \(pathAndQuery): \(error)")],
                            problem: "proxied to \(target): \(error)")
                    } else {
                        generated = sentOn(Forwarder.Head(status: answer.status, headers: answer.headers)).0
                    }
                    reply.reply.withLock { $0 = generated }
                    wake()
                }
                forwarder.configuration.observer?(
                    ProxiedExchange(
                        method: request.method, url: target + pathAndQuery, requestHeaders: journaledHeaders,
                        redactedRequestHeaders: redactedHeaders, requestBody: request.body, status: answer.refused ? 0 : answer.status,
                        responseHeaders: answer.headers, responseBody: answer.body, responseBodyLength: answer.bodyLength,
                        error: answer.refused ? "its answer's head could not be sent on" : answer.error))
            }
        }
    }

    /// Queues a proxied answer whose body is passed on as it arrives, and journals it.
    func queuePassedOn(
        _ head: GeneratedResponse, body: PassedOnBody, _ decision: Decision, _ context: RequestContext, _ connection: MHDConnection,
        path: UnsafeBufferPointer<UInt8>
    ) -> MHD_Result {
        let sent = Decision.finished(head, headers: decision.headers)
        let response = body.response(contentType: sent.contentType.isEmpty ? nil : sent.contentType, headers: sent.headers)
        defer { MHDResponse.destroy(response) }
        let result = connection.queue(response, status: sent.status)
        record(context, path: path, status: sent.status, note: decision.journal, problem: sent.problem)
        return result
    }

    /// The length the client is told: the backend's own for a `HEAD` or a 304, whose bodies are
    /// never sent (a `HEAD` of a 192-byte answer says 192, not the 0 bytes it carries).
    static func framing(of head: Forwarder.Head, method: String) -> GeneratedResponse.Framing {
        guard method == "HEAD" || head.status == 304 else { return .body }
        return statedLength(of: head.headers).map { .stated(Int(clamping: $0)) } ?? .unstated
    }

    /// The target's `Content-Length`, when it stated one plainly and no `Transfer-Encoding`.
    static func statedLength(of headers: [HTTPField]) -> UInt64? {
        guard !headers.contains(where: { $0.name.lowercased() == "transfer-encoding" }) else { return nil }
        return headers.last { $0.name.lowercased() == "content-length" }.flatMap { UInt64($0.value.filter { $0 != " " && $0 != "\t" }) }
    }

    /// Why a request target must not reach the target's URL, or nil for a plain `/path`. The URL
    /// is the configured origin followed by this path, so a target that does not start with `/`
    /// would continue the origin's authority (`@127.0.0.1:9/x` makes the origin userinfo and the
    /// client's text the host): absolute-form, authority-form, `*` and `@…` are refused, and so
    /// is a backslash, which some URL parsers read as `/`.
    static func notOriginForm(_ path: UnsafeBufferPointer<UInt8>) -> String? {
        guard path.first == UInt8(ascii: "/") else { return "the target does not start with /" }
        if path.contains(UInt8(ascii: "\\")) { return "the target holds a backslash" }
        return nil
    }

    /// The path as libmicrohttpd decoded it (`%2F` kept), encoded again for the target's URL.
    static func percentEncodedPath(_ path: UnsafeBufferPointer<UInt8>) -> String {
        var out = ""
        out.reserveCapacity(path.count)
        for byte in path {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "/-._~!$&'()*+,;=:@%".utf8.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
