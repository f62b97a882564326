import SystemLibc

/// The session a request is served in, as its path (`/s/ID/…`) or its `Mockapi-Session` header
/// names it, or why it cannot be. One word (the refusal boxed), so a request context keeps it
/// at the cost of a pointer.
package enum SessionScope: Sendable {
    /// Served inside this session.
    case session(SessionState)
    /// Answered with this at once (an unknown, expired or malformed id), and not journaled.
    indirect case refused(GeneratedResponse)

    /// The session, when served in one.
    @inlinable package var session: SessionState? {
        if case .session(let session) = self { session } else { nil }
    }
}

extension Responder {
    /// The header that names a session for a request whose path does not.
    package static let sessionHeader: StaticString = "Mockapi-Session"
    /// Where a session's requests live: `/s/ID/path`.
    package static let sessionPathPrefix = "/s/"

    /// Whether a path is a session's (`/s/…`): three byte compares, all a request without a
    /// session pays for the path form (the header form costs a length compare per header, in the
    /// walk that counts `Host` lines: `HeaderFields.headScan`).
    @inlinable package static func isSessionPath(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        path.count >= 3 && path[2] == UInt8(ascii: "/") && path[1] == UInt8(ascii: "s") && path[0] == UInt8(ascii: "/")
    }

    /// The session a request names by its path (`isSessionPath`) or its `Mockapi-Session` header,
    /// and how many bytes of the path its prefix takes (the contracts see the rest); or why it
    /// cannot be served. Only for a request that names one: the others never get here.
    /// `namesSession`: whether the headers may have a `Mockapi-Session` (`HeaderFields.HeadScan`);
    /// false spares looking. `threadSlot`: the calling thread's, whose last session is tried first.
    package func sessionScope(
        path: UnsafeBufferPointer<UInt8>, headers: HeaderFields, namesSession: Bool = true, threadSlot: Int = ThreadSlot.current
    ) -> (scope: SessionScope, pathOffset: Int) {
        if !namesSession, let session = recentSession(path: path, threadSlot: threadSlot) { return (.session(session), Self.sessionPrefixLength) }
        let header = namesSession ? headers.value(of: Self.sessionHeader) : nil
        return resolveSession(path: path, prefixed: Self.isSessionPath(path), header: header, threadSlot: threadSlot)
    }

    /// How many bytes `/s/ID` takes of a path: `/s/` and an id's 16 bytes.
    static let sessionPrefixLength = 3 + SessionID.length

    /// The session of a `/s/ID` or `/s/ID/…` path (not an admin one) when it is the thread's last
    /// (`SessionRegistry.recentSession`); nil sends the request the long way (`resolveSession`),
    /// which also says why one cannot be served. The id is read off the path in place: its 16
    /// bytes are where a well-formed id's are, so no scan for its end and no parse.
    @inline(__always)
    private func recentSession(path: UnsafeBufferPointer<UInt8>, threadSlot: Int) -> SessionState? {
        let end = Self.sessionPrefixLength
        guard path.count >= end, Self.isSessionPath(path), let start = path.baseAddress else { return nil }
        if path.count > end {
            guard start[end] == UInt8(ascii: "/") else { return nil }
            // `/__mockapi/…` inside a session is refused the long way: any path starting `/_` goes there.
            if path.count > end + 1, start[end + 1] == UInt8(ascii: "_") { return nil }
        }
        let id = UnsafeRawPointer(start + 3)
        return sessions.recentSession(
            low: id.loadUnaligned(as: UInt64.self), high: id.loadUnaligned(fromByteOffset: 8, as: UInt64.self), threadSlot: threadSlot)
    }

    private func resolveSession(
        path: UnsafeBufferPointer<UInt8>, prefixed: Bool, header: String?, threadSlot: Int
    ) -> (scope: SessionScope, pathOffset: Int) {
        func refused(_ response: GeneratedResponse) -> (scope: SessionScope, pathOffset: Int) { (.refused(response), 0) }
        let key: UInt64
        var offset = 0
        if prefixed {
            let rest = UnsafeBufferPointer(rebasing: path[3...])
            let slash = rest.isEmpty ? nil : memchr(rest.baseAddress!, Int32(UInt8(ascii: "/")), rest.count)
            let end = slash.map { UnsafeRawPointer($0) - UnsafeRawPointer(rest.baseAddress!) } ?? rest.count
            let segment = UnsafeBufferPointer(rebasing: rest[..<end])
            // The thread's last session, by the id's bytes: no parse, no lock, no hash.
            if header == nil, !Self.isAdmin(Self.innerPath(path, offset: 3 + end)),
                let session = sessions.recentSession(id: segment, threadSlot: threadSlot)
            {
                return (.session(session), 3 + end)
            }
            guard let value = SessionID.value(segment) else {
                return refused(ErrorResponses.malformedSession(String(decoding: segment, as: UTF8.self), source: "path"))
            }
            if let header, SessionID.value(header) != value {
                return refused(
                    ErrorResponses.malformed(
                        "the path names session \(SessionID.text(value)) and the \(Self.sessionHeader) header session \(Self.shown(header)): send one",
                        contract: nil))
            }
            key = value
            offset = 3 + end
        } else {
            guard let value = header.flatMap(SessionID.value) else { return refused(ErrorResponses.malformedSession(header ?? "", source: "header")) }
            key = value
        }
        if Self.isAdmin(Self.innerPath(path, offset: offset)) {
            return refused(
                GeneratedResponse(
                    status: 404,
                    json: [
                        "error": .string(
                            "admin endpoints are not served inside a session: call /__mockapi/… without /s/ID and without \(Self.sessionHeader), "
                                + "with ?session=ID where it reads or resets one session (GET /__mockapi/requests?session=\(SessionID.text(key)))")
                    ], problem: "admin endpoint inside a session"))
        }
        guard let session = sessions.session(key, use: true) else {
            return refused(ErrorResponses.unknownSession(SessionID.text(key), idleTimeoutSeconds: sessions.limits.idleTimeoutSeconds))
        }
        sessions.remember(session, threadSlot: threadSlot)
        return (.session(session), offset)
    }

    /// The path the contracts see: what follows `/s/ID`, or `/` when nothing does.
    @inlinable package static func innerPath(_ path: UnsafeBufferPointer<UInt8>, offset: Int) -> UnsafeBufferPointer<UInt8> {
        guard offset > 0 else { return path }
        guard offset < path.count, let start = path.baseAddress else { return UnsafeBufferPointer(start: rootPath.utf8Start, count: 1) }
        // By address: a rebased slice checked its bounds again on every request in a session.
        return UnsafeBufferPointer(start: start + offset, count: path.count - offset)
    }

    package static let rootPath: StaticString = "/"

    private static func isAdmin(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "/__mockapi/"
        return path.count >= prefix.utf8CodeUnitCount && memcmp(path.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    /// An id as a message quotes it: at most 64 characters of it.
    static func shown(_ id: String) -> String {
        id.count > 64 ? "\"\(id.prefix(64))…\"" : "\"\(id)\""
    }
}

extension ErrorResponses {
    /// 400: an id `POST /__mockapi/sessions` could never have given.
    package static func malformedSession(_ id: String, source: String) -> GeneratedResponse {
        malformed(
            "session id \(Responder.shown(id)) (in the \(source)) is malformed: ids are \(SessionID.length) lowercase hex digits, as POST /__mockapi/sessions gives them",
            contract: nil)
    }

    /// 404: a well-formed id with no live session.
    package static func unknownSession(_ id: String, idleTimeoutSeconds: Int) -> GeneratedResponse {
        let detail =
            "session \(id) does not exist: it was never made, was deleted, or expired after \(idleTimeoutSeconds) s without a request "
            + "(POST /__mockapi/sessions makes a new one)"
        return GeneratedResponse(
            status: 404, contentType: problemType,
            json: ProblemDocument(kind: .unknownSession, title: "no such session", status: 404, detail: detail).json, problem: detail)
    }

    /// 429: `--max-sessions` are alive.
    package static func tooManySessions(max: Int, retryAfterSeconds: Int) -> GeneratedResponse {
        let detail =
            "the server already holds its limit of \(max) sessions (mockapi serve --max-sessions); delete finished ones "
            + "(DELETE /__mockapi/sessions/ID) or wait for idle ones to expire, the first in \(retryAfterSeconds) s"
        return GeneratedResponse(
            status: 429, contentType: problemType,
            json: ProblemDocument(kind: .tooManySessions, title: "too many sessions", status: 429, detail: detail).json,
            headers: [HTTPField("Retry-After", String(retryAfterSeconds))], problem: detail)
    }
}
