import Foundation
import MockAPIServer
import MockAPITestSupport
import Testing

/// Clients that hold connections open cannot lock other clients out.
struct ConnectionLimitTests {
    @Test func oneAddressCannotTakeMoreThanItsShareOfConnections() async throws {
        try await withMockServer(configure: { $0.maxConnectionsPerIP = 3 }) { server in
            let held = try (0..<3).map { _ in try RawHTTP(port: server.port) }
            for client in held { try client.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n") } // headers never finished
            let fourth = try RawHTTP(port: server.port)
            #expect(fourth.closedByServer(within: 5))
            // Another client address still gets in.
            let other = try RawHTTP(port: server.port, source: "127.0.0.2")
            try other.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try other.readResponse()?.status == 200)
            withExtendedLifetime(held) {}
        }
    }

    @Test func headersTricklingInPastTheDeadlineAreCutOff() async throws {
        try await withMockServer(configure: { $0.headerTimeoutSeconds = 1 }) { server in
            let slow = try RawHTTP(port: server.port)
            let opened = Date()
            try slow.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n")
            // A header line every 200 ms keeps the 30 s idle timeout from ever firing.
            var closed = false
            for index in 0..<25 where !closed {
                closed = slow.closedByServer(within: 0.2)
                if !closed { _ = try? slow.send("X-Slow-\(index): 1\r\n") }
            }
            #expect(closed)
            #expect(Date().timeIntervalSince(opened) < 3)
            let next = try RawHTTP.request(server.port, "GET", "/v1/categories")
            #expect(next.status == 200)
        }
    }

    @Test func aRequestWhoseHeadersArriveInTimeIsNotCutOffWhileItsBodyStreams() async throws {
        // No minimum body rate here: this is about the header deadline alone, and a loaded machine may stretch the pauses.
        try await withMockServer(configure: {
            $0.headerTimeoutSeconds = 1; $0.minBodyBytesPerSecond = 0
        }) { server in
            let status = try await onOwnThread {
                let client = try RawHTTP(port: server.port)
                try client.send("POST /v1/projects/1/star HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n")
                for _ in 0..<6 {
                    usleep(250_000)
                    try client.send("ab")
                }
                return try client.readResponse()?.status
            }
            #expect(status == 200)
        }
    }
}
