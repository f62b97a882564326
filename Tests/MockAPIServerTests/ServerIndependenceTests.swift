import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Synchronization
import Testing

/// A server's own work keeps time whatever else the process does, and servers in one process
/// leave each other alone.
///
/// The process's shared pool (the threads Swift tasks and `DispatchQueue.global()` run on; on
/// Linux as many as there are cores, more only as libdispatch's monitor adds about one a second)
/// is often all blocked in a test suite: tests wait on sockets for this very server's answers.
/// Work the server queued there (a delay's wake-up, a trickle's next bytes, a reload) then waited
/// for seconds, the waiting clients held the pool longer still, and every other test in the
/// process stalled: in the full suite, other servers' connections hit their 30 s idle timeout.
@Suite(.serialized) struct ServerIndependenceTests {
    @Test func aReloadIsAnsweredWhileThePoolIsBlocked() async throws {
        try await withReloadableServer { server in
            let (status, seconds) = try await whileSharedPoolIsBlocked {
                try RawHTTP.request(server.port, "POST", "/__mockapi/reload").status
            }
            #expect(status == 200)
            #expect(seconds < 1, "\(seconds) s")
        }
    }

    @Test func aDelayedAnswerIsOnTimeWhileThePoolIsBlocked() async throws {
        try await withReloadableServer { server in
            let (status, seconds) = try await whileSharedPoolIsBlocked {
                try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "delay=100"]).status
            }
            #expect(status == 200)
            #expect(seconds >= 0.1 && seconds < 1, "\(seconds) s")
        }
    }

    @Test func aTrickleKeepsItsPaceWhileThePoolIsBlocked() async throws {
        try await withReloadableServer { server in
            // About 300 bytes with the headers, at 1,000 bytes a second.
            let (text, seconds) = try await whileSharedPoolIsBlocked {
                try RawHTTP.request(server.port, "GET", "/v1/categories/34", headers: ["Prefer": "fault=trickle"]).text
            }
            #expect(text.contains("Tabletop Games"))
            #expect(seconds < 1.5, "\(seconds) s")
        }
    }

    @Test func aHangingClientThatLeavesIsLetGoWhileThePoolIsBlocked() async throws {
        try await withReloadableServer { server in
            let ((inFlight, seconds), _) = try await whileSharedPoolIsBlocked {
                var client: RawHTTP? = try RawHTTP(port: server.port)
                try client?.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\nPrefer: fault=hang\r\n\r\n")
                for _ in 0..<500 where server.server.requestsInFlight == 0 { usleep(2_000) }
                let left = Date()
                client = nil // closes the socket: the sweep of parked connections must notice
                for _ in 0..<1_500 where server.server.requestsInFlight > 0 { usleep(2_000) }
                return (server.server.requestsInFlight, Date().timeIntervalSince(left))
            }
            #expect(inFlight == 0)
            #expect(seconds < 1.5, "\(seconds) s")
        }
    }

    @Test func reloadingOneServerLeavesAnotherServersStreamingBodyAlone() async throws {
        try await withReloadableServer { reloaded in
            try await withMockServer(configure: {
                $0.headerTimeoutSeconds = 1; $0.minBodyBytesPerSecond = 0
            }) { streaming in
                let reloads = Counters()
                let reloader = Thread {
                    while reloads.stopped.load(ordering: .relaxed) == 0 {
                        if (try? RawHTTP.request(reloaded.port, "POST", "/__mockapi/reload"))?.status == 200 { reloads.done.add(1, ordering: .relaxed) }
                    }
                }
                reloader.start()
                defer { reloads.stopped.store(1, ordering: .relaxed) }
                let client = try RawHTTP(port: streaming.port)
                try client.send("POST /v1/projects/1/star HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n")
                for _ in 0..<6 {
                    usleep(250_000) // on this thread: a busy test pool must not stretch the pauses
                    try client.send("ab")
                }
                #expect(try client.readResponse()?.status == 200)
                #expect(reloads.done.load(ordering: .relaxed) > 0)
            }
        }
    }

    @Test func stoppingOneServerLeavesAnotherServersRequestAlone() async throws {
        try await withMockServer(configure: { $0.minBodyBytesPerSecond = 0 }) { staying in
            let client = try RawHTTP(port: staying.port)
            try client.send("POST /v1/projects/1/star HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
            for _ in 0..<3 {
                let status = try await withMockServer { stopped in try RawHTTP.request(stopped.port, "GET", "/v1/categories").status }
                #expect(status == 200)
            }
            try client.send("cd")
            #expect(try client.readResponse()?.status == 200)
        }
    }

    private func withReloadableServer(_ body: (RunningMockServer) async throws -> Void) async throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try await withMockServer(
            contracts: set.contracts, fixtures: set.fixtures,
            configure: { $0.reloadSource = (set.contracts.path, set.fixtures.path) }
        ) { try await body($0) }
    }
}

/// Counts shared between a test and its threads.
private final class Counters: Sendable {
    let done = Atomic<Int>(0)
    let stopped = Atomic<Int>(0)
}

/// Jobs that hold threads of the shared pool until released.
private final class PoolHolders: Sendable {
    let queued = Atomic<Int>(0)
    let running = Atomic<Int>(0)
    let release = DispatchSemaphore(value: 0)

    /// Queues one more; it lets go when released, or after 10 s whatever happens.
    func add() {
        queued.add(1, ordering: .relaxed)
        DispatchQueue.global().async { [self] in
            running.add(1, ordering: .relaxed)
            _ = release.wait(timeout: .now() + 10)
        }
    }

    /// Adds holders until one does not start within 200 ms (the pool is full and jobs queue), then
    /// two more, so the threads libdispatch's monitor adds go to holders first.
    func fillThePool() {
        while queued.load(ordering: .relaxed) < 64 {
            add()
            var waited = 0
            while running.load(ordering: .relaxed) < queued.load(ordering: .relaxed), waited < 200 { usleep(1_000); waited += 1 }
            if waited >= 200 { break }
        }
        add()
        add()
    }

    func releaseAll() {
        for _ in 0..<queued.load(ordering: .relaxed) { release.signal() }
    }
}

/// Runs `body` on a thread of its own while every thread of the shared pool is held and more jobs
/// wait for one, as in a suite whose tests block; returns its result and how long it took.
private func whileSharedPoolIsBlocked<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> (T, Double) {
    try await onOwnThread {
        let holders = PoolHolders()
        holders.fillThePool()
        defer { holders.releaseAll() }
        let began = Date()
        let result = try body()
        return (result, Date().timeIntervalSince(began))
    }
}
