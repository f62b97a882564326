import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a day-long development backend needs, over real sockets: reloads that drop nothing,
/// delays that block no worker, faults a client can observe, CORS.
@Suite struct DevBackendTests {
    /// A copy of the bundled set served with its files as the reload source.
    private func withReloadableServer(
        threads: Int = 2, _ configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RunningMockServer, TemporaryContractSet) async throws -> Void
    ) async throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try await withMockServer(
            contracts: set.contracts, fixtures: set.fixtures,
            configure: { configuration in
                configuration.reloadSource = (set.contracts.path, set.fixtures.path)
                configuration.threads = threads
                configure(&configuration)
            }
        ) { server in try await body(server, set) }
    }

    @Test func reloadServesEditedFixturesAndABrokenEditKeepsThePreviousSet() async throws {
        try await withReloadableServer { server, set in
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories/34").text.contains("Tabletop Games"))
            try set.write(
                #"{"id": 34, "name": "Board Games", "slug": "games/tabletop-games", "parent_id": 12, "projects_count": 118}"#,
                to: "fixtures/categories/category.json")
            let reloaded = try RawHTTP.request(server.port, "POST", "/__mockapi/reload")
            #expect(reloaded.status == 200)
            #expect(try reloaded.decoded(ReloadAnswer.self).routes == 19)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories/34").text.contains("Board Games"))

            try set.write("{broken", to: "contracts/broken.json")
            let refused = try RawHTTP.request(server.port, "POST", "/__mockapi/reload")
            #expect(refused.status == 422)
            #expect(try refused.decoded(ReloadAnswer.self).problems?.first?.hasSuffix("broken.json:1:2: not valid JSON: unexpected 'b', expected a string key") == true)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories/34").text.contains("Board Games"), "the previous set still serves")
            #expect(server.journal().count == 3, "the journal is kept across reloads")
        }
    }

    @Test func reloadsUnderLoadLoseNoRequest() async throws {
        try await withReloadableServer { server, _ in
            let tally = Tally()
            // OS threads, not tasks: blocking sockets in other tests can starve the task pool.
            var threads = (0..<3).map { _ in
                Thread {
                    for _ in 0..<300 {
                        do {
                            let response = try RawHTTP.request(server.port, "GET", "/v1/projects/42")
                            if response.status != 200 { tally.failures.withLock { $0.append("status \(response.status)") } }
                            tally.answered.add(1, ordering: .relaxed)
                        } catch {
                            tally.failures.withLock { $0.append("\(error)") }
                        }
                    }
                    tally.finished.add(1, ordering: .relaxed)
                }
            }
            threads.append(
                Thread {
                    for _ in 0..<10 {
                        if case .failure(let error) = server.server.reload() { tally.failures.withLock { $0.append(error.description) } }
                        usleep(50_000)
                    }
                    tally.finished.add(1, ordering: .relaxed)
                })
            threads.forEach { $0.start() }
            while tally.finished.load(ordering: .relaxed) < threads.count { usleep(20_000) }
            #expect(tally.failures.withLock { $0 } == [])
            #expect(tally.answered.load(ordering: .relaxed) == 900)
        }
    }

    @Test func delaysHoldTheAnswerNotTheWorker() async throws {
        // One worker thread: a delay that blocked it would hold up the second request too.
        try await withReloadableServer(threads: 1) { server, _ in
            let slow = Tally()
            let started = Date()
            let thread = Thread {
                let status = (try? RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "delay=600"]).status) ?? 0
                slow.failures.withLock { $0.append("\(status) after \(Date().timeIntervalSince(started))") }
            }
            thread.start()
            usleep(100_000)
            let quickStarted = Date()
            let quick = try RawHTTP.request(server.port, "GET", "/v1/categories/34")
            let quickSeconds = Date().timeIntervalSince(quickStarted)
            #expect(quick.status == 200)
            #expect(quickSeconds < 0.3, "answered while the other request waited, not after: \(quickSeconds) s")
            while slow.failures.withLock({ $0.isEmpty }) { usleep(20_000) }
            let outcome = slow.failures.withLock { $0[0] }.split(separator: " ")
            #expect(outcome.first == "200")
            #expect((Double(outcome.last ?? "") ?? 0) >= 0.6)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Prefer": "delay=soon"]).status == 422)
        }
    }

    @Test func serverWideDelayAppliesToEveryContractAnswer() async throws {
        try await withReloadableServer({ $0.delay = .uniform(min: 200, max: 250) }) { server, _ in
            let started = Date()
            let answer = try RawHTTP.request(server.port, "GET", "/v1/categories")
            #expect(answer.status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.2)
        }
    }

    @Test func faultsAreWhatCurlSees() async throws {
        try await withReloadableServer { server, _ in
            func curl(_ fault: String, timeout: String = "5") throws -> Int32 {
                try ExternalTool.run(["curl", "-s", "-o", "/dev/null", "-m", timeout, "-H", "Prefer: fault=\(fault)", "\(server.baseURL)/v1/categories"]).status
            }
            let empty = try curl("empty"), reset = try curl("reset"), garbage = try curl("garbage"), hang = try curl("hang", timeout: "1")
            #expect(empty == 52) // empty reply from server
            #expect([52, 56].contains(reset)) // closed at once; RST when the client still sends
            #expect([1, 8].contains(garbage)) // not HTTP
            #expect(hang == 28) // timed out
            #expect(server.journal().map(\.problem) == ["fault: empty", "fault: reset", "fault: garbage", "fault: hang"])
            let after = try RawHTTP.request(server.port, "GET", "/v1/categories")
            #expect(after.status == 200, "the server is fine afterwards")
        }
    }

    @Test func trickleSendsTheWholeAnswerSlowly() async throws {
        try await withReloadableServer { server, _ in
            let started = Date()
            let answer = try RawHTTP.request(server.port, "GET", "/v1/categories/34", headers: ["Prefer": "fault=trickle"])
            let seconds = Date().timeIntervalSince(started)
            #expect(answer.status == 200)
            #expect(answer.text.contains("Tabletop Games"))
            #expect(answer.headers["mockapi-contract"] == "category")
            // About 300 bytes with its headers, at 1,000 bytes a second.
            #expect(seconds >= 0.2, "\(seconds) s")
            let quick = try RawHTTP.request(server.port, "GET", "/v1/categories/34")
            #expect(quick.body == answer.body)
        }
    }

    @Test func faultsAreWhatURLSessionSees() async throws {
        try await withReloadableServer { server, _ in
            func code(_ fault: String) async -> Int {
                var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/categories"), timeoutInterval: 1)
                request.setValue("fault=\(fault)", forHTTPHeaderField: "Prefer")
                do {
                    let configuration = URLSessionConfiguration.ephemeral
                    configuration.timeoutIntervalForRequest = 1
                    _ = try await URLSession(configuration: configuration).data(for: request)
                    return 0
                } catch {
                    return (error as? URLError)?.errorCode ?? -1
                }
            }
            let empty = await code("empty"), reset = await code("reset"), garbage = await code("garbage"), hang = await code("hang")
            // Apple's URLSession reports a dropped connection as -1005; swift-corelibs-foundation
            // (Linux, over libcurl) as -1011, and bytes that are not HTTP as -1002.
            let dropped = [URLError.networkConnectionLost.rawValue, URLError.badServerResponse.rawValue]
            #expect(dropped.contains(empty), "\(empty)")
            #expect(dropped.contains(reset), "\(reset)")
            #expect((dropped + [URLError.cannotParseResponse.rawValue, URLError.unsupportedURL.rawValue]).contains(garbage), "\(garbage)")
            #expect(hang == URLError.timedOut.rawValue, "\(hang)")
        }
    }

    @Test func corsAnswersPreflightsAndMarksEveryAnswer() async throws {
        try await withReloadableServer({ $0.cors = true }) { server, _ in
            let preflight = try RawHTTP.request(
                server.port, "OPTIONS", "/v1/projects/42/backers/2001",
                headers: [
                    "Origin": "http://localhost:3000", "Access-Control-Request-Method": "PUT",
                    "Access-Control-Request-Headers": "authorization, content-type",
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, PUT, OPTIONS")
            #expect(preflight.headers["access-control-allow-headers"] == "authorization, content-type")
            #expect(preflight.headers["access-control-allow-origin"] == "*")
            let answer = try RawHTTP.request(server.port, "GET", "/v1/categories", headers: ["Origin": "http://localhost:3000"])
            #expect(answer.headers["access-control-allow-origin"] == "*")
            let refused = try RawHTTP.request(server.port, "GET", "/v1/nowhere")
            #expect(refused.headers["access-control-allow-origin"] == "*")
            // Every admin endpoint, the streamed journal among them, and the reload (it once ran
            // on the process's shared pool and stalled other suites' servers), answers with no
            // CORS headers: CORS is for the mocked API, and with it any web page could read the
            // journal (issue 30.3). A preflight to one is not approved.
            let adminPreflight = try RawHTTP.request(
                server.port, "OPTIONS", "/__mockapi/requests", headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "GET"])
            #expect(adminPreflight.headers["access-control-allow-origin"] == nil)
            #expect(adminPreflight.headers["access-control-allow-methods"] == nil)
            for (method, target) in [
                ("GET", "/__mockapi/requests"), ("GET", "/__mockapi/requests?limit=1"), ("GET", "/__mockapi/requests/count"),
                ("GET", "/__mockapi/routes"), ("DELETE", "/__mockapi/scenarios"), ("POST", "/__mockapi/reload"),
                ("DELETE", "/__mockapi/requests"), ("GET", "/__mockapi/nothing"),
            ] {
                let admin = try RawHTTP.request(server.port, method, target)
                #expect(admin.status < 500, "\(method) \(target)")
                #expect(admin.headers["access-control-allow-origin"] == nil, "\(method) \(target)")
                #expect(admin.headers["access-control-expose-headers"] == nil, "\(method) \(target)")
            }
        }
    }
}

/// What concurrent clients saw, gathered across tasks.
private final class Tally: Sendable {
    let failures = Mutex<[String]>([])
    let answered = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
}

/// `POST /__mockapi/reload`'s answer: the routes served after a reload, or why it was refused.
private struct ReloadAnswer: Decodable {
    var routes: Int?
    var problems: [String]?
}
