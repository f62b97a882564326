import ClientKit
import Foundation
import Testing

@Suite struct RetryDelayTests {
    @Test func immediateAndConstant() {
        #expect(RetryDelay.immediate.delay(beforeRetry: 3) == .zero)
        #expect(RetryDelay.constant(.milliseconds(250)).delay(beforeRetry: 1) == .milliseconds(250))
        #expect(RetryDelay.constant(.milliseconds(250)).delay(beforeRetry: 5) == .milliseconds(250))
    }

    @Test func exponentialGrowsThenCaps() {
        let delay = RetryDelay.exponential(initial: .milliseconds(100), multiplier: 2, max: .milliseconds(500))
        #expect(
            (1...5).map(delay.delay(beforeRetry:)) == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
            ])
    }

    @Test func exponentialNeverOverflows() {
        let delay = RetryDelay.exponential(initial: .seconds(1), multiplier: 10, max: .seconds(30))
        #expect(delay.delay(beforeRetry: 1_000) == .seconds(30))
    }

    @Test func customGetsTheRetryNumber() {
        #expect(RetryDelay.custom { .seconds($0 * 3) }.delay(beforeRetry: 2) == .seconds(6))
    }

    @Test func defaultPredicateRetriesTransientFailuresOnly() {
        let retried = [500, 502, 503, 429].map { RetryPolicy.isTransient(.server(status: $0, envelope: nil, body: .init())) }
        let notRetried = [400, 401, 404, 422].map { RetryPolicy.isTransient(.server(status: $0, envelope: nil, body: .init())) }
        #expect(retried == [true, true, true, true])
        #expect(notRetried == [false, false, false, false])
        #expect(RetryPolicy.isTransient(.transport(URLErrorStub())))
        #expect(!RetryPolicy.isTransient(.decoding(DecodingFailure(endpoint: "", path: "", message: ""))))
        #expect(!RetryPolicy.isTransient(.invalidResponse("")))
    }

    @Test func attemptsAreAtLeastOne() {
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
        #expect(RetryPolicy.none.maxAttempts == 1)
    }
}

private struct URLErrorStub: Error {}
