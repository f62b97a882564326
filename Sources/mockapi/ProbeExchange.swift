import Foundation
import SystemLibc

/// One `GET` over HTTP/1.1 on a socket of its own, for `mockapi probe`: a container image has no
/// curl, and a probe needs nothing but a status line and a small body. Every step waits at most
/// until `deadline`; the caller bounds name resolution too (`Probe.run` waits on its own clock).
struct ProbeExchange {
    enum Outcome: Sendable {
        /// The status, the status line's reason phrase and the body (at most `maxBytes` of the answer).
        case answered(status: Int, reason: String, body: [UInt8])
        /// Why there was no answer, in a few words: `connection refused`, `no answer within 2 s`.
        case failed(String)
    }

    var host: String
    var port: UInt16
    /// The request target: `/__mockapi/ready`.
    var target: String
    /// The `Host` header: the URL's host and port as written.
    var hostHeader: String
    var timeoutSeconds: Double

    /// An answer larger than this is not a probe's: reading stops there.
    static let maxBytes = 64 * 1024

    func run() -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            return .failed("cannot resolve \(host) (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        let descriptor = socket(first.pointee.ai_family, streamSocket, 0)
        guard descriptor >= 0 else { return .failed("no socket (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        noSIGPIPE(descriptor)
        // Linux bounds connect() by the send timeout too; the caller's clock bounds it everywhere.
        var limit = timeval()
        limit.tv_sec = .init(timeoutSeconds.rounded(.down))
        limit.tv_usec = .init((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1_000_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return failure(errno) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: mockapi-probe\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, sendWithoutSIGPIPE) }
            guard count > 0 else { return failure(errno) }
            sent += count
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while answer.count < Self.maxBytes {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { return failure(errno) }
            answer += chunk[..<count]
            if Self.isComplete(answer) { break }
        }
        return Self.parse(answer)
    }

    private func failure(_ code: Int32) -> Outcome {
        switch code {
        case EAGAIN, EWOULDBLOCK, EINPROGRESS, ETIMEDOUT: .failed("no answer within \(Self.seconds(timeoutSeconds))")
        case ECONNREFUSED: .failed("connection refused")
        case ECONNRESET, EPIPE: .failed("connection closed before an answer")
        default: .failed(String(cString: strerror(code)).lowercased())
        }
    }

    /// `2 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    /// The head and the `Content-Length` bytes after it are in (the server may keep the
    /// connection open a moment after answering).
    private static func isComplete(_ answer: [UInt8]) -> Bool {
        guard let end = headEnd(answer) else { return false }
        let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return answer.count - (end + 4) >= length
    }

    private static func headEnd(_ answer: [UInt8]) -> Int? {
        guard answer.count >= 4 else { return nil }
        return (0...(answer.count - 4)).first { answer[$0] == 13 && answer[$0 + 1] == 10 && answer[$0 + 2] == 13 && answer[$0 + 3] == 10 }
    }

    /// `HTTP/1.1 503 Service Unavailable` and what follows the head.
    static func parse(_ answer: [UInt8]) -> Outcome {
        guard !answer.isEmpty else { return .failed("connection closed before an answer") }
        let end = headEnd(answer)
        let head = String(decoding: answer[..<(end ?? answer.count)], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n", omittingEmptySubsequences: false).first ?? ""
        let words = statusLine.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
            return .failed("not an HTTP answer")
        }
        let body = end.map { Array(answer[($0 + 4)...]) } ?? []
        return .answered(status: status, reason: words.count > 2 ? String(words[2]) : "", body: body)
    }
}
