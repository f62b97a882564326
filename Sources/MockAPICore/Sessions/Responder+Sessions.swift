/// The session endpoints: `POST /__mockapi/sessions` makes one, `GET` lists them,
/// `PUT /__mockapi/sessions/ID` makes one with an id the client chose (behind a balancer that
/// keeps a session on one server by its id), `GET`/`DELETE /__mockapi/sessions/ID` reads or ends
/// one, `POST /__mockapi/sessions/ID/reset` starts its sequences over and empties its journal.
/// Guarded like every admin endpoint.
extension Responder {
    private static let sessionsPath = "/__mockapi/sessions"

    /// What `?session=ID` on a journal or scenario endpoint names: that session (and the query
    /// without it), or a refusal.
    enum SessionArgument {
        case found(SessionState?, rest: [QueryArgument])
        case refused(GeneratedResponse)
    }

    func sessionArgument(_ query: [QueryArgument]) -> SessionArgument {
        guard let index = query.firstIndex(where: { $0.name == "session" }) else { return .found(nil, rest: query) }
        var rest = query
        let id = rest.remove(at: index).value ?? ""
        switch liveSession(id) {
        case .success(let session): return .found(session, rest: rest)
        case .failure(let refusal): return .refused(refusal.response)
        }
    }

    /// The answer to a `/__mockapi/sessions…` request; nil for any other admin path.
    func respondSessionAdmin(method: String, path: String, headers: HeaderFields) -> GeneratedResponse? {
        guard path.hasPrefix(Self.sessionsPath) else { return nil }
        let rest = path.dropFirst(Self.sessionsPath.count)
        if rest.isEmpty || rest == "/" {
            switch method {
            case "POST": return createSession(headers: headers)
            case "GET": return GeneratedResponse(status: 200, json: .array(sessions.all().map(\.json)))
            default: return Self.sessionMethodNotAllowed(method, path: path, allowed: "GET, POST")
            }
        }
        guard rest.hasPrefix("/") else { return nil }
        let parts = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let id = String(parts[0])
        let action = parts.count > 1 ? parts[1...].joined(separator: "/") : nil
        switch action {
        case nil:
            if method == "PUT" { return createSession(proposed: id, headers: headers) }
            guard method == "GET" || method == "DELETE" else { return Self.sessionMethodNotAllowed(method, path: path, allowed: "GET, PUT, DELETE") }
            let session: SessionState
            switch liveSession(id) {
            case .success(let found): session = found
            case .failure(let refusal): return refusal.response
            }
            if method == "GET" { return GeneratedResponse(status: 200, json: session.json) }
            // Gone already (another caller, or expiry since the lookup): the same 404.
            guard sessions.remove(session.key) else { return ErrorResponses.unknownSession(id, idleTimeoutSeconds: sessions.limits.idleTimeoutSeconds) }
            return GeneratedResponse(status: 204, body: [])
        case "reset":
            guard method == "POST" else { return Self.sessionMethodNotAllowed(method, path: path, allowed: "POST") }
            switch liveSession(id) {
            case .success(let session):
                session.reset()
                return GeneratedResponse(status: 200, json: ["reset": "session", "session": .string(session.id)])
            case .failure(let refusal):
                return refusal.response
            }
        default:
            return nil
        }
    }

    private struct Refusal: Error {
        var response: GeneratedResponse
    }

    /// The live session `id` (not counted as used: an admin call is not the session's traffic),
    /// or the 400 or 404 that says why not.
    private func liveSession(_ id: String) -> Result<SessionState, Refusal> {
        guard let key = SessionID.value(id) else {
            return .failure(Refusal(response: ErrorResponses.malformedSession(id, source: "admin path or ?session=")))
        }
        guard let session = sessions.session(key) else {
            return .failure(Refusal(response: ErrorResponses.unknownSession(id, idleTimeoutSeconds: sessions.limits.idleTimeoutSeconds)))
        }
        return .success(session)
    }

    /// `proposed`: the id a `PUT` names, which must be well formed and not a live session's (the
    /// client chose it, typically at random, so that a balancer could route by it beforehand).
    private func createSession(proposed: String? = nil, headers: HeaderFields) -> GeneratedResponse {
        var key: UInt64?
        if let proposed {
            guard let value = SessionID.value(proposed) else { return ErrorResponses.malformedSession(proposed, source: "admin path") }
            key = value
        }
        switch sessions.create(key: key) {
        case .failure(.full(let retryAfterSeconds)):
            return ErrorResponses.tooManySessions(max: sessions.limits.maxSessions, retryAfterSeconds: retryAfterSeconds)
        case .failure(.taken):
            return GeneratedResponse(
                status: 409,
                json: ["error": .string("session \(proposed ?? "") already exists: PUT /__mockapi/sessions/ID makes a new one; choose another id (16 random lowercase hex digits)")])
        case .success(let session):
            let base = sessionBaseURL(session.id, host: headers.value(of: "Host"))
            return GeneratedResponse(
                status: 201, json: ["id": .string(session.id), "baseURL": .string(base)],
                headers: [HTTPField("Location", "\(Self.sessionsPath)/\(session.id)")])
        }
    }

    /// `http://HOST/s/ID`: the host the client reached this server by (its `Host`, so a simulator
    /// or a container that knows the server by another name gets a URL it can use), else the
    /// address the server listens on. The scheme is the server's.
    func sessionBaseURL(_ id: String, host: String?) -> String {
        let listening = sessions.listeningURL
        let scheme = listening.hasPrefix("https:") ? "https" : "http"
        let origin: String
        if let host, Self.isUsableHost(host) {
            origin = "\(scheme)://\(host)"
        } else {
            origin = listening.isEmpty ? "" : listening
        }
        return "\(origin)\(Self.sessionPathPrefix)\(id)"
    }

    /// A `Host` value that can go into a URL as it stands: a name or address and a port, nothing
    /// that could end the authority (`/`, `@`, `?`, `#`, spaces).
    private static func isUsableHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")].contains(byte)
            }
    }

    private static func sessionMethodNotAllowed(_ method: String, path: String, allowed: String) -> GeneratedResponse {
        GeneratedResponse(status: 405, json: ["error": .string("\(method) \(path) is not an admin endpoint; \(path) takes \(allowed)")], headers: [HTTPField("Allow", allowed)])
    }
}
