import SystemLibc

/// Why a server could not start, with the facts a person needs to fix it.
package enum ServerError: Error, Sendable, CustomStringConvertible {
    case invalidHost(String)
    case startFailed(host: String, port: UInt16, errno: Int32)
    /// A setting out of its range (`ServerConfiguration.outOfRange`).
    case outOfRange(String)

    package var description: String {
        switch self {
        case .invalidHost(let host):
            return "cannot listen on \"\(host)\": use an IPv4 or IPv6 address such as 127.0.0.1"
        case .startFailed(let host, let port, let code):
            let reason = code == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(code))
            return "cannot listen on \(host):\(port): \(reason)"
        case .outOfRange(let problem):
            return problem
        }
    }
}
