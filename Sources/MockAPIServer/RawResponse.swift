import MockAPICore
import SystemLibc

/// A response written straight to a connection's socket, for the one answer libmicrohttpd
/// cannot queue: one decided in the middle of a request body (MHD 0.9.75 refuses to queue
/// until the body has ended). The caller then returns `MHD_NO`, and MHD closes the connection.
enum RawResponse {
    /// The whole HTTP/1.1 message, with `Connection: close`.
    static func bytes(_ response: GeneratedResponse) -> [UInt8] {
        head(response) + response.body
    }

    /// The status line and headers of `bytes(response)`, up to and with the blank line.
    static func head(_ response: GeneratedResponse) -> [UInt8] {
        let reason = MHDResponse.reasonPhrase(response.status)
        var head = "HTTP/1.1 \(response.status) \(reason)\r\nConnection: close\r\n"
        if !response.contentType.isEmpty { head += "Content-Type: \(response.contentType)\r\n" }
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        return Array(head.utf8)
    }

    static func sendAndClose(_ response: GeneratedResponse, on connection: MHDConnection) {
        let bytes = bytes(response)
        let descriptor = connection.descriptor
        guard descriptor >= 0 else { return }
        // Nothing else is being written on this connection: its previous response was sent whole
        // before this request was read. The socket is non-blocking; a short error response fits
        // an empty send buffer, and what does not is dropped with the connection. On HTTPS the
        // bytes go through the connection's TLS session.
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { connection.send($0.baseAddress! + offset, count: bytes.count - offset) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { break }
            offset += sent
        }
        shutdown(descriptor, Int32(SHUT_WR))
        LingeringClose.shared.linger(descriptor)
    }
}
