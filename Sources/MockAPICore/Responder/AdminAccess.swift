/// Who may use the admin endpoints (`/__mockapi/…`): the journal holds every request's headers,
/// so reading it is guarded even on a developer's machine.
///
/// - With a token, a request must carry `Mockapi-Admin-Token: <token>`.
/// - Without one, a server that listens on loopback answers admin requests whose `Host` is
///   localhost or a loopback address (a web page that rebinds its own DNS name to 127.0.0.1 sends
///   its own name as Host, and is refused); a server that listens beyond loopback answers none.
public struct AdminAccess: Sendable {
    public static let tokenHeader = "Mockapi-Admin-Token"

    public var token: String?
    /// The server's listening address is a loopback one.
    public var listensOnLoopbackOnly: Bool

    public init(token: String? = nil, listensOnLoopbackOnly: Bool = true) {
        self.token = token
        self.listensOnLoopbackOnly = listensOnLoopbackOnly
    }

    /// `127.0.0.1`, any `127.x.y.z`, `::1`, `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The 403 an admin request gets, or nil when it may proceed.
    public func refusal(headers: HeaderFields) -> GeneratedResponse? {
        if let token {
            guard headers.value(for: Self.tokenHeader) == token else {
                return Self.forbidden("admin endpoints need the header \(Self.tokenHeader) with the server's --admin-token")
            }
            return nil
        }
        guard listensOnLoopbackOnly else {
            return Self.forbidden("admin endpoints are off: the server listens beyond loopback; start it with --admin-token to use them")
        }
        if let host = headers.value(for: "Host"), !Self.isLoopback(Self.hostName(host)) {
            return Self.forbidden("admin requests must name localhost or a loopback address as Host, not \"\(host)\" (a guard against DNS rebinding)")
        }
        return nil
    }

    /// `localhost:8080` → `localhost`, `[::1]:8080` → `::1`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<close]) }
        return String(host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    private static func forbidden(_ message: String) -> GeneratedResponse {
        GeneratedResponse(status: 403, json: ["error": .string(message)])
    }
}
