import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// One local client must not lock the others out: delays held by clients that left, slow
/// bodies, and too many JSON bodies at once (issue 16, items 1 and 4-7).
struct StarvationTests {
    @Test func aHostileDelayIsRefusedAndTheServerGoesOn() async throws {
        try await withMockServer { server in
            for value in ["inf", "1e300", "1e16", "0-1e300", "lognormal:1:1000"] {
                let response = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "delay=\(value)"])
                #expect(response.status == 422, "delay=\(value)")
                #expect(String(decoding: response.body, as: UTF8.self).contains("0 to 60000 ms"))
            }
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func aClientThatLeavesADelayedAnswerFreesItsConnection() async throws {
        try await withMockServer { server in
            var clients: [RawHTTP] = []
            for _ in 0..<20 {
                let client = try RawHTTP(port: server.port)
                try client.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\nPrefer: delay=60000\r\n\r\n")
                clients.append(client)
            }
            // Polled on this thread (usleep): a busy test pool would stretch Task.sleep past what is measured.
            for _ in 0..<500 where server.server.requestsInFlight < 20 { usleep(10_000) }
            #expect(server.server.requestsInFlight == 20)
            clients.removeAll() // closes every socket
            let closedAt = Date()
            for _ in 0..<500 where server.server.requestsInFlight > 0 { usleep(10_000) }
            #expect(server.server.requestsInFlight == 0)
            #expect(Date().timeIntervalSince(closedAt) < 3)
            let abandoned = server.journal().filter { $0.problem?.contains("closed the connection before the delayed answer") ?? false }
            #expect(abandoned.count == 20)
        }
    }

    @Test func aBodyBelowTheMinimumRateIsAnswered408AndClosed() async throws {
        try await withMockServer(configure: {
            $0.minBodyBytesPerSecond = 1_024; $0.bodyRateGraceSeconds = 1
        }) { server in
            let client = try RawHTTP(port: server.port)
            let opened = Date()
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: token a\r\nContent-Length: 4096\r\n\r\n{")
            // One byte every 250 ms (4 bytes a second) until the server stops reading.
            var sending = true
            for _ in 0..<40 where sending {
                usleep(250_000) // on this thread: a busy test pool must not stretch the pauses
                sending = (try? client.send(" ")) != nil && !client.closedByServer(within: 0.01)
            }
            let elapsed = Date().timeIntervalSince(opened)
            let response = try client.readResponse()
            #expect(response?.status == 408)
            #expect(response?.text.contains("--min-body-rate") == true)
            #expect(elapsed < 8, "cut after \(elapsed) s")
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func jsonBodiesPastTheSharedBudgetGet503() async throws {
        try await withMockServer(configure: {
            $0.maxBufferedBytes = 64 * 1024; $0.maxJSONBytes = 48 * 1024
        }) { server in
            let holder = try RawHTTP(port: server.port)
            try holder.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: token a\r\nContent-Length: 40000\r\n\r\n{")
            for _ in 0..<500 where server.server.requestsInFlight == 0 { usleep(10_000) }
            let refused = try RawHTTP.request(
                server.port, "PUT", "/v1/projects/1/backers/2",
                headers: ["Content-Type": "application/json", "Authorization": "token a"],
                body: Data(#"{"amount": 1, "reward_id": 2, "note": "\#(String(repeating: "x", count: 40_000))"}"#.utf8))
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "1")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("--max-buffered-bytes"))
            holder.shutdownWrite()
            _ = holder.closedByServer(within: 2)
            for _ in 0..<200 where server.server.requestsInFlight > 0 { try await Task.sleep(for: .milliseconds(10)) }
            let served = try RawHTTP.request(
                server.port, "PUT", "/v1/projects/1/backers/2",
                headers: ["Content-Type": "application/json", "Authorization": "token a"],
                body: Data(#"{"amount": 45, "reward_id": 9}"#.utf8))
            #expect(served.status == 200)
        }
    }

    @Test func outOfRangeSettingsAreRefusedByTheServerNamingTheFlag() throws {
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.headerTimeoutSeconds = 5_000_000_000
        #expect {
            try MockServer(set: set, configuration: configuration)
        } throws: { error in
            "\(error)" == "--header-timeout 5000000000 is out of range: 0 to 86400 seconds"
        }
        configuration.headerTimeoutSeconds = 10
        configuration.connectionTimeoutSeconds = 10_000_000_000_000
        #expect(throws: ServerError.self) { try MockServer(set: set, configuration: configuration) }
    }
}
