import CMicroHTTPD
import Dispatch
import MockAPICore

/// Requests no contract takes, sent to the real backend (`--proxy-unmatched`, `record`). None
/// holds a worker thread: the connection is suspended until the answer is in.
extension RequestHandler {
    /// Answers sent on from the target lose the headers that belong to its connection, and the
    /// ones libmicrohttpd writes itself.
    static let answerHeadersDropped: Set<String> = Forwarder.hopByHop.union(["date"])

    func startForwarding(_ context: RequestContext, connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        guard let forwarder else { return .NO }
        let pathText = Self.percentEncodedPath(path)
        let pathAndQuery = pathText + (context.rawQuery.map { "?" + $0 } ?? "")
        let headers = context.headers.pairs
        let request = Forwarder.Request(method: context.method, pathAndQuery: pathAndQuery, headers: headers, body: context.rawBody)
        let reply = DeferredReply()
        context.pending = .proxied(reply)
        guard suspensions.suspend(connection, owner: context.parking) else {
            context.pending = nil
            return queue(GeneratedResponse(status: 503, json: ["error": "the server is stopping"]), context, connection, path: path)
        }
        let parked = ParkedConnection(pointer: connection), owner = context.parking
        let journaledHeaders = configuration.journalSecrets ? headers : context.headers.forJournal(keepingSecrets: false).pairs
        let target = forwarder.configuration.target
        forwarder.send(request) { [self] answer in
            var generated: GeneratedResponse
            if let error = answer.error {
                generated = GeneratedResponse(status: error.contains("imeout") ? 504 : 502,
                                              json: ["error": .string("\(target) did not answer \(request.method) \(pathAndQuery): \(error)")],
                                              problem: "proxied to \(target): \(error)")
            } else {
                let contentType = answer.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
                let kept = answer.headers.filter { !Self.answerHeadersDropped.contains($0.name.lowercased()) && $0.name.lowercased() != "content-type" }
                generated = GeneratedResponse(status: answer.status, contentType: contentType, body: answer.body, headers: kept,
                                              problem: "no contract matches \(request.method) \(pathText); proxied to \(target)")
            }
            forwarder.configuration.observer?(ProxiedExchange(
                method: request.method, url: target + pathAndQuery, requestHeaders: journaledHeaders, requestBody: request.body,
                status: answer.status, responseHeaders: answer.headers, responseBody: answer.body, error: answer.error))
            reply.reply.withLock { $0 = generated }
            // Only this request's connection: if its client left, MHD may have handed the pointer to another.
            suspensions.resume(parked.pointer, owner: owner)
        }
        return .YES
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

private extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}
