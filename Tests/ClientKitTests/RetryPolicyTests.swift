import ClientKit
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Retries against contracts whose `sequence` fails before it succeeds.
@Suite struct RetryPolicyTests {
    typealias Widget = TestAPI.Widget

    private let backoff = RetryDelay.exponential(initial: .milliseconds(100), multiplier: 2, max: .seconds(1))

    @Test func transientFailuresAreRetriedWithTheConfiguredDelays() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let sleeps = SleepRecorder()
            let client = TestAPI.client(port: server.port, retry: RetryPolicy(maxAttempts: 5, delay: backoff), sleeps: sleeps)
            let widget = try await client.request(Endpoint(.get, "/v1/flaky"), as: Widget.self)
            #expect(widget.id == 3)
            #expect(server.journal().map(\.status) == [503, 503, 200])
            #expect(sleeps.recorded == [.milliseconds(100), .milliseconds(200)])
        }
    }

    @Test func notFoundIsNeverRetried() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let sleeps = SleepRecorder()
            let client = TestAPI.client(port: server.port, retry: RetryPolicy(maxAttempts: 5, delay: backoff), sleeps: sleeps)
            let endpoint = Endpoint(.get, "/v1/widgets/1", headers: ["Prefer": "example=not_found"])
            await #expect(throws: APIError.self) { try await client.request(endpoint, as: Widget.self) }
            #expect(server.journal().count == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test func attemptsStopAtTheMaximum() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let sleeps = SleepRecorder()
            let policy = RetryPolicy(maxAttempts: 4, delay: .constant(.milliseconds(50)))
            let client = TestAPI.client(port: server.port, retry: policy, sleeps: sleeps)
            let error = await #expect(throws: APIError.self) { try await client.request(Endpoint(.get, "/v1/down"), as: Widget.self) }
            guard case .server(503, let envelope?, _)? = error else {
                Issue.record("expected the last 503, got \(String(describing: error))")
                return
            }
            #expect(envelope.errorMessages == ["Try again later"])
            #expect(server.journal().count == 4)
            #expect(sleeps.recorded == Array(repeating: .milliseconds(50), count: 3))
        }
    }

    @Test func retryAfterHeaderReplacesTheComputedDelay() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let sleeps = SleepRecorder()
            let client = TestAPI.client(port: server.port, retry: RetryPolicy(maxAttempts: 2, delay: backoff), sleeps: sleeps)
            let widget = try await client.request(Endpoint(.get, "/v1/throttled"), as: Widget.self)
            #expect(widget.id == 4)
            #expect(sleeps.recorded == [.seconds(7)])
        }
    }

    @Test func customPredicateDecidesWhatIsRetried() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let policy = RetryPolicy(maxAttempts: 5, delay: .immediate) { _ in false }
            let client = TestAPI.client(port: server.port, retry: policy)
            await #expect(throws: APIError.self) { try await client.request(Endpoint(.get, "/v1/flaky"), as: Widget.self) }
            #expect(server.journal().count == 1)
        }
    }

    @Test func transportErrorsAreRetried() async throws {
        let set = try TestAPI.contracts()
        let port = try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in server.port }
        let sleeps = SleepRecorder()
        let client = TestAPI.client(port: port, retry: RetryPolicy(maxAttempts: 3, delay: .constant(.milliseconds(10))), sleeps: sleeps)
        await #expect(throws: APIError.self) { try await client.request(Endpoint(.get, "/v1/widgets/1"), as: Widget.self) }
        #expect(sleeps.recorded == [.milliseconds(10), .milliseconds(10)])
    }

    @Test func cancellationStopsTheWaitBetweenAttempts() async throws {
        let set = try TestAPI.contracts()
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let (waiting, waitStarted) = AsyncStream<Void>.makeStream()
            let client = APIClient(
                configuration: ClientConfiguration(
                    environment: .local(port: server.port),
                    retry: RetryPolicy(maxAttempts: 3, delay: .constant(.seconds(60))),
                    sleep: { delay in
                        waitStarted.yield()
                        try await Task.sleep(for: delay)
                    }
                ))
            let call = Task { try await client.request(Endpoint(.get, "/v1/down"), as: Widget.self) }
            for await _ in waiting { break }
            let started = ContinuousClock.now
            call.cancel()
            let result = await call.result
            #expect(throws: CancellationError.self) { try result.get() }
            // Far below the 60 s delay, with room for a loaded CI machine.
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(server.journal().count == 1)
        }
    }
}
