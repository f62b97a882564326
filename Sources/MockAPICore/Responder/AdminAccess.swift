/// Who may use the admin endpoints (`/__mockapi/…`): the journal holds every request's headers,
/// so reading it is guarded even on a developer's machine.
///
/// - Every admin request must carry a `Host` (an HTTP/1.0 request may leave it out; a browser
///   never does, so its absence says nothing good).
/// - With a token, a request must carry `Mockapi-Admin-Token: <token>` once (two are refused with
///   400, never first-wins), compared byte for byte.
/// - Without one, a server that listens on loopback answers admin requests whose `Host` is
///   `localhost` or a loopback address literal (a web page that rebinds its own DNS name to
///   127.0.0.1 sends its own name as Host, and is refused); a server that listens beyond loopback
///   answers none.
/// - Admin writes (anything but GET and HEAD) are refused when a browser says they come from a
///   page of another origin (`Origin`, `Sec-Fetch-Site`): a cross-site form can POST without a
///   preflight. curl and test code send neither header, so they need nothing more.
package struct AdminAccess: Sendable {
    package static let tokenHeader = "Mockapi-Admin-Token"

    package var token: String?
    /// The server's listening address is a loopback one.
    package var listensOnLoopbackOnly: Bool

    package init(token: String? = nil, listensOnLoopbackOnly: Bool = true) {
        self.token = token
        self.listensOnLoopbackOnly = listensOnLoopbackOnly
    }

    /// A loopback address or name, bare or in brackets: `127.0.0.1` (any of 127.0.0.0/8 as a dotted
    /// quad of four decimal octets), `::1`, `localhost`. `127.attacker.example` is a DNS name, not one.
    package static func isLoopback(_ host: String) -> Bool {
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return host == "localhost" || host == "::1" || isLoopbackIPv4(host)
    }

    /// Four decimal octets, each 0-255, the first 127.
    private static func isLoopbackIPv4(_ host: Substring) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            (1...3).contains(octet.utf8.count) && octet.utf8.allSatisfy { ASCII.isDigit($0) } && Int(octet)! <= 255
        }
    }

    /// The 403 an admin request gets, or nil when it may proceed.
    package func refusal(method: String, headers: HeaderFields) -> GeneratedResponse? {
        guard let host = headers.value(for: "Host") else {
            return Self.forbidden("admin requests must carry a Host header")
        }
        if let token {
            // Two tokens: which one the guard reads is a choice a proxy in front may make otherwise.
            guard Self.tokenCount(in: headers) <= 1 else {
                return GeneratedResponse(status: 400, json: ["error": .string("\(Self.tokenHeader) is given more than once: send it once")])
            }
            guard Self.carries(token: token, in: headers) else {
                return Self.forbidden("admin endpoints need the header \(Self.tokenHeader) with the server's --admin-token")
            }
        } else {
            guard listensOnLoopbackOnly else {
                return Self.forbidden("admin endpoints are off: the server listens beyond loopback; start it with --admin-token to use them")
            }
            guard let name = Self.hostName(host), Self.isLoopback(name) else {
                return Self.forbidden("admin requests must name localhost or a loopback address as Host, not \"\(host)\" (a guard against DNS rebinding)")
            }
        }
        if method != "GET", method != "HEAD", let page = Self.crossOriginPage(host: host, headers: headers) {
            return Self.forbidden(
                "admin writes are refused from a web page of another origin (\(page)); "
                    + "send them without an Origin header (curl, a test), or from a page this server serves")
        }
        return nil
    }

    /// The `Host` value's host part when it is `host[:port]`: `localhost:8080` → `localhost`,
    /// `[::1]:8080` → `[::1]`; nil when it is not of that form.
    static func hostName(_ host: String) -> String? {
        let name: Substring, rest: Substring
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            name = host[...close]
            rest = host[host.index(after: close)...]
        } else {
            let colon = host.firstIndex(of: ":") ?? host.endIndex
            name = host[..<colon]
            rest = host[colon...]
        }
        guard !name.isEmpty else { return nil }
        guard rest.isEmpty || (rest.first == ":" && rest.utf8.dropFirst().allSatisfy { ASCII.isDigit($0) }) else { return nil }
        return String(name)
    }

    /// How many `Mockapi-Admin-Token` lines the request has.
    static func tokenCount(in headers: HeaderFields) -> Int {
        var count = 0
        headers.forEachValue(of: "Mockapi-Admin-Token") { _ in
            count += 1
            return true
        }
        return count
    }

    /// `Mockapi-Admin-Token` equals the token byte for byte (UTF-8, no Unicode equivalence), in a
    /// time that does not depend on where they first differ.
    static func carries(token: String, in headers: HeaderFields) -> Bool {
        let expected = Array(token.utf8)
        var matches = false
        headers.forEachValue(of: "Mockapi-Admin-Token") { sent in
            var difference: UInt8 = sent.count == expected.count ? 0 : 1
            for index in 0..<expected.count { // as long whatever was sent
                difference |= expected[index] ^ (index < sent.count ? sent[index] : 0)
            }
            matches = difference == 0
            return false // the first value only
        }
        return matches
    }

    /// What says the request comes from a page of another origin (`Origin: …` or
    /// `Sec-Fetch-Site: cross-site`), or nil. The server's own origin is `http(s)://` and the Host.
    private static func crossOriginPage(host: String, headers: HeaderFields) -> String? {
        if let site = headers.value(for: "Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" {
            return "Sec-Fetch-Site: \(site)"
        }
        guard let origin = headers.value(for: "Origin") else { return nil }
        let own = ["http://" + host.lowercased(), "https://" + host.lowercased()]
        return own.contains(origin.lowercased()) ? nil : "Origin: \(origin)"
    }

    private static func forbidden(_ message: String) -> GeneratedResponse {
        GeneratedResponse(status: 403, json: ["error": .string(message)])
    }
}
