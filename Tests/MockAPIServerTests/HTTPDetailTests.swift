import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import SystemLibc
import Testing

/// HTTP details a client sees on the wire: one answer per request, never two, never none.
@Suite struct HTTPDetailTests {
    /// libmicrohttpd 0.9.75 answers an unparsable Content-Length (and an HTTP/1.1 request without
    /// Host) itself, before mockapi is called, and writes its header block twice:
    /// `parse_connection_headers` queues the error and builds its headers, its caller then moves
    /// the connection on to `HEADERS_PROCESSED`, and `FOOTERS_RECEIVED` builds them again.
    /// mockapi's access handler is never called for such a request, so it has no hook to stop it.
    @Test(
        .disabled("libmicrohttpd 0.9.75 writes its own 400's header block twice; no hook reaches it (issue 16, item 15)"),
        arguments: ["-1", "abc", "+3", "3 3", "100000000000000000000000"])
    func aBadContentLengthGetsOneStatusLine(value: String) async throws {
        try await withMockServer { server in
            let received = try Self.bytesUntilClosed(
                port: server.port,
                sending: "PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(value)\r\n\r\n{}")
            #expect(received.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "\(received)")
        }
    }

    @Test func twoHostHeadersAre400EvenWhenTheyAgree() async throws {
        try await withMockServer { server in
            for second in ["evil.example", "127.0.0.1"] {
                let client = try RawHTTP(port: server.port)
                try client.send("GET /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: \(second)\r\nConnection: close\r\n\r\n")
                let response = try #require(try client.readResponse())
                #expect(response.status == 400)
                #expect(ProblemDocument(body: response.body)?.detail == "Host is given more than once (RFC 9112 §3.2)")
            }
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    /// libmicrohttpd 0.9.75 appends a folded line to the header's *name* (`X-Foldsecondthird:
    /// first`), takes a name with a space or a parenthesis, and keeps a bare CR in a value: each
    /// was journaled so and sent on by the proxy. RFC 9112 §5.2 and RFC 9110 §5.5 allow a 400.
    @Test(arguments: [
        ("X-Fold: first\r\n second\r\n\tthird", "a header line continues on the next (obs-fold, RFC 9112 §5.2)"),
        ("X-Fold: first\r\n second third", "a header line continues on the next (obs-fold, RFC 9112 §5.2)"),
        ("X-Fold:\r\n second", "a header line continues on the next (obs-fold, RFC 9112 §5.2)"),
        ("X Space: v", "a header name holds a byte that is not a token character (RFC 9110 §5.1)"),
        ("X-Before : v", "a header name holds a byte that is not a token character (RFC 9110 §5.1)"),
        ("X(a): v", "a header name holds a byte that is not a token character (RFC 9110 §5.1)"),
        ("X-Cr: a\rb", "a header value holds a control byte (CR, LF, NUL or another; RFC 9110 §5.5)"),
        ("X-Ctl: a\u{1}b", "a header value holds a control byte (CR, LF, NUL or another; RFC 9110 §5.5)"),
    ])
    func malformedHeaderLinesAre400(line: String, detail: String) async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            try client.send("GET /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n\(line)\r\nConnection: close\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.status == 400)
            #expect(ProblemDocument(body: response.body)?.detail == detail)
            let tab = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["X-Tab": "a\tb", "X-Text": "café"])
            #expect(tab.status == 200, "a tab and non-ASCII text in a value are fine")
        }
    }

    /// Echoed, 16 KiB of requested header names did not fit the connection's memory and the
    /// preflight got no answer at all.
    @Test func aCORSPreflightAskingForHugeHeadersIsAnswered() async throws {
        try await withMockServer(configure: { $0.cors = true }) { server in
            let names = (0..<2_800).map { "x-h\($0)" }.joined(separator: ",") + ",authorization"
            #expect(names.utf8.count > 16 * 1024)
            let preflight = try RawHTTP.request(
                server.port, "OPTIONS", "/v1/categories",
                headers: [
                    "Origin": "http://app.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": names,
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-headers"] == "*, Authorization")
            let short = try RawHTTP.request(
                server.port, "OPTIONS", "/v1/categories",
                headers: [
                    "Origin": "http://app.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-trace",
                ])
            #expect(short.headers["access-control-allow-headers"] == "x-trace")
        }
    }

    /// `--host ::` means every address: IPv4 clients reach it too.
    @Test func listeningOnTheIPv6WildcardTakesIPv4AndIPv6() async throws {
        try await withMockServer(configure: { $0.host = "::" }) { server in
            let overIPv4 = try RawHTTP.request(server.port, "GET", "/v1/categories").status
            let overIPv6 = try Self.statusOverIPv6Loopback(port: server.port)
            #expect(server.server.listensOnIPv4AndIPv6)
            #expect(overIPv4 == 200)
            #expect(overIPv6 == 200)
        }
        try await withMockServer(configure: { $0.host = "::1" }) { server in
            let overIPv6 = try Self.statusOverIPv6Loopback(port: server.port)
            #expect(!server.server.listensOnIPv4AndIPv6)
            #expect(overIPv6 == 200)
        }
    }

    /// Everything the server sends on one connection until it closes it.
    private static func bytesUntilClosed(port: Int, sending request: String) throws -> String {
        let client = try RawHTTP(port: port)
        try client.send(request)
        var received = ""
        while let response = try client.readResponse() {
            received += "HTTP/1.1 \(response.status)\r\n" + response.text
        }
        return received
    }

    /// One GET over `[::1]:port`; the status, or nil without an answer.
    private static func statusOverIPv6Loopback(port: Int) throws -> Int? {
        let fd = socket(AF_INET6, streamSocket, 0)
        noSIGPIPE(fd)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard connected == 0 else { throw RawHTTP.Failure(description: "connect to [::1]:\(port) failed: errno \(errno)") }
        let request = Array("GET /v1/categories HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n".utf8)
        guard SystemLibc.send(fd, request, request.count, sendWithoutSIGPIPE) == request.count else { return nil }
        var head = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &head, head.count, 0)
        guard count > 12 else { return nil }
        return Int(String(decoding: head[9..<12], as: UTF8.self))
    }
}
