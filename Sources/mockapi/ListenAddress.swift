import Foundation
import SystemLibc

/// `--host` as libmicrohttpd needs it: an IP literal. Names are resolved once, at start.
enum ListenAddress {
    struct Unresolvable: Error, CustomStringConvertible {
        var host: String
        var reason: String
        var description: String { #"cannot listen on "\#(host)": \#(reason)"# }
    }

    /// IP literals unchanged; `localhost` is 127.0.0.1 (not whatever order the resolver prefers,
    /// so the listening line and a simulator's `localhost` agree); other names through
    /// getaddrinfo, IPv4 first.
    static func resolve(_ host: String) throws(Unresolvable) -> String {
        if isLiteral(host) { return host }
        if host.lowercased() == "localhost" { return "127.0.0.1" }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &results)
        guard status == 0, let first = results else {
            throw Unresolvable(host: host, reason: "no such host (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let current = next { candidates.append(current); next = current.pointee.ai_next }
        let chosen = candidates.first { $0.pointee.ai_family == AF_INET } ?? first
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(chosen.pointee.ai_addr, chosen.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
            throw Unresolvable(host: host, reason: "its address cannot be read")
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
