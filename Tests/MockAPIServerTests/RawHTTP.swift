import Foundation
import SystemLibc

/// A deliberately small HTTP/1.1 client on a raw socket, so tests can send exactly the bytes
/// they mean (malformed requests, truncated bodies, two requests on one connection).
final class RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }

        /// The body decoded as `type` by Foundation's decoder: typed, and independent of the
        /// server's own JSON code under test.
        func decoded<Value: Decodable>(_ type: Value.Type, keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys) throws -> Value {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = keys
            return try decoder.decode(type, from: body)
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private let fd: Int32
    private var buffer = Data()

    /// `source` picks the client's loopback address (any 127.x.y.z), to look like another client.
    init(port: Int, source: String? = nil) throws {
        // A local until connected: a throw after `self.fd` is set still runs deinit, which would
        // close the number a second time, by then perhaps another server's socket.
        let fd = socket(AF_INET, streamSocket, 0)
        noSIGPIPE(fd)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw Failure(description: "bind \(source) failed: errno \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "connect failed: errno \(errno)") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// How long `readResponse` waits for bytes before giving up (10 s unless set).
    func receiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = SystemLibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, sendWithoutSIGPIPE)
                guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
                offset += sent
            }
        }
    }

    /// Whether the server has closed the connection, waiting up to `seconds` for it to.
    func closedByServer(within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Stops sending; the server sees the end of the request stream.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// A chunked body's bytes and where it ends, or nil while it is incomplete.
    private static func dechunk(_ data: Data) -> (Data, Data.Index)? {
        var body = Data()
        var position = data.startIndex
        while let lineEnd = data[position...].range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[position..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            let chunkStart = lineEnd.upperBound
            if size == 0 {
                // No trailers: the last chunk is followed by an empty line.
                guard data.count - (chunkStart - data.startIndex) >= 2 else { return nil }
                return (body, chunkStart + 2)
            }
            guard data.count - (chunkStart - data.startIndex) >= size + 2 else { return nil }
            body.append(data[chunkStart..<(chunkStart + size)])
            position = chunkStart + size + 2
        }
        return nil
    }

    /// Reads one response (by Content-Length, or chunked); nil when the server closed without one.
    func readResponse() throws -> Response? {
        while true {
            if let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let bodyStart = headerEnd.upperBound
                let chunked = headers["transfer-encoding"]?.lowercased() == "chunked"
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if chunked, let (body, end) = Self.dechunk(buffer[bodyStart...]) {
                    buffer = Data(buffer[end...])
                    return Response(status: status, headers: headers, body: body)
                }
                if !chunked, buffer.count - (bodyStart - buffer.startIndex) >= length {
                    let body = buffer[bodyStart..<(bodyStart + length)]
                    let response = Response(status: status, headers: headers, body: Data(body))
                    buffer = Data(buffer[(bodyStart + length)...])
                    return response
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// `raw` (a request as written, malformed if the test wants) on a fresh connection, and the
    /// answer read back; nil when none came (within `seconds`, when given).
    static func exchange(_ port: Int, _ raw: String, timeoutSeconds seconds: Int? = nil) throws -> Response? {
        let client = try RawHTTP(port: port)
        if let seconds { client.receiveTimeout(seconds: seconds) }
        try client.send(raw)
        return try client.readResponse()
    }

    /// One request on a fresh connection.
    static func request(_ port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data()) throws -> Response {
        let client = try RawHTTP(port: port)
        // Host: 127.0.0.1 unless the test sends its own.
        var head = "\(method) \(target) HTTP/1.1\r\n" + (headers.keys.contains("Host") ? "" : "Host: 127.0.0.1\r\n") + "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        try client.send(Data((head + "\r\n").utf8) + body)
        guard let response = try client.readResponse() else { throw Failure(description: "no response to \(method) \(target)") }
        return response
    }
}

/// A multipart/form-data body built by hand, for tests that need to break it on purpose.
struct MultipartBody {
    var boundary = "mockapi-test-boundary"
    var parts: [(name: String, filename: String?, contentType: String?, data: Data)] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var data: Data {
        var out = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n"
            if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
            out += Data((head + "\r\n").utf8) + part.data + Data("\r\n".utf8)
        }
        return out + Data("--\(boundary)--\r\n".utf8)
    }
}

/// Fake JPEG bytes: the magic number, then a deterministic pattern.
func jpegBytes(_ count: Int) -> Data {
    Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
}
