import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Sessions (`POST /__mockapi/sessions`, `/s/ID/…`, `Mockapi-Session`): each has its own
/// sequence positions and journal, so parallel UI tests share one server without seeing each
/// other. Against a real server on a real socket.
@Suite struct SessionTests {
    /// A sequence whose every step says which it is, so a client that got another's step can tell.
    static let steps = #"""
        {"name": "steps", "request": {"method": "GET", "path": "/steps"},
         "responses": {"one": {"status": 200, "body": {"step": 1}}, "two": {"status": 200, "body": {"step": 2}},
                       "three": {"status": 200, "body": {"step": 3}}, "default": {"status": 200, "body": {"step": 4}}},
         "sequence": ["one", "two", "three", "default"]}
        """#

    static func withStepsServer<T>(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (RunningMockServer) async throws -> T
    ) async throws -> T {
        let set = try TemporaryContractSet(contracts: ["steps.json": steps])
        return try await withMockServer(contracts: set.contracts, fixtures: set.fixtures, configure: configure, body)
    }

    /// `POST /__mockapi/sessions`: the new session's id and base URL.
    static func createSession(_ port: Int) throws -> (id: String, baseURL: String) {
        let response = try RawHTTP.request(port, "POST", "/__mockapi/sessions", headers: ["Host": "127.0.0.1:\(port)"])
        guard response.status == 201, let made = try? response.decoded(Made.self) else {
            throw RawHTTP.Failure(description: "POST /__mockapi/sessions: \(response.status) \(response.text)")
        }
        return (made.id, made.baseURL)
    }

    static func step(_ port: Int, _ target: String, headers: [String: String] = [:]) throws -> Int? {
        let response = try RawHTTP.request(port, "GET", target, headers: headers)
        return try? response.decoded(Step.self).step
    }

    static func journal(_ port: Int, session: String? = nil) throws -> [Entry] {
        let target = "/__mockapi/requests" + (session.map { "?session=\($0)" } ?? "")
        let response = try RawHTTP.request(port, "GET", target)
        guard response.status == 200, let entries = try? response.decoded([Entry].self) else {
            throw RawHTTP.Failure(description: "GET \(target): \(response.status) \(response.text)")
        }
        return entries
    }

    // What the admin API answers, as Foundation's decoder reads it (independent of the server's JSON code).
    struct Made: Decodable { var id: String, baseURL: String }
    struct Step: Decodable { var step: Int }
    struct Entry: Decodable { var path: String, contract: String?, headers: [String: String] }
    struct Listed: Decodable { var id: String, requests: Int, created: Int }
    struct Problem: Decodable { var type: String, detail: String }

    static func sessions(_ port: Int) throws -> [Listed] {
        try RawHTTP.request(port, "GET", "/__mockapi/sessions").decoded([Listed].self)
    }

    @Test func createAnswersIdAndBaseURLFromHost() async throws {
        try await Self.withStepsServer { server in
            let response = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions", headers: ["Host": "localhost:\(server.port)"])
            #expect(response.status == 201)
            let json = try #require(response.json as? [String: String])
            let id = try #require(json["id"])
            #expect(id.count == 16 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(json["baseURL"] == "http://localhost:\(server.port)/s/\(id)")
            #expect(response.headers["location"] == "/__mockapi/sessions/\(id)")

            let listed = try Self.sessions(server.port)
            #expect(listed.map(\.id) == [id])
            #expect(listed.first?.requests == 0)
            #expect((listed.first?.created ?? 0) > 1_700_000_000_000)
        }
    }

    @Test func twoSessionsRunningOneSequenceDoNotAdvanceEachOther() async throws {
        try await Self.withStepsServer { server in
            let port = server.port
            let first = try Self.createSession(port)
            let second = try Self.createSession(port)
            #expect(try Self.step(port, "/s/\(first.id)/steps") == 1)
            #expect(try Self.step(port, "/s/\(first.id)/steps") == 2)
            #expect(try Self.step(port, "/s/\(second.id)/steps") == 1)
            #expect(try Self.step(port, "/s/\(first.id)/steps") == 3)
            #expect(try Self.step(port, "/s/\(second.id)/steps") == 2)
            // Without a session: the server-wide sequence, untouched by both.
            #expect(try Self.step(port, "/steps") == 1)

            // Journals: each session its own, the server-wide one only the request made without one.
            let firstJournal = try Self.journal(port, session: first.id)
            #expect(firstJournal.count == 3)
            #expect(firstJournal.allSatisfy { $0.path == "/steps" && $0.contract == "steps" })
            #expect(try Self.journal(port, session: second.id).count == 2)
            #expect(try Self.journal(port).count == 1)
            let count = try RawHTTP.request(port, "GET", "/__mockapi/requests/count?session=\(second.id)&contract=steps")
            #expect((count.json as? [String: Int])?["count"] == 2)

            #expect(Set(try Self.sessions(port).map(\.requests)) == [3, 2])
        }
    }

    @Test func theHeaderNamesASessionToo() async throws {
        try await Self.withStepsServer { server in
            let port = server.port
            let session = try Self.createSession(port)
            #expect(try Self.step(port, "/steps", headers: ["Mockapi-Session": session.id]) == 1)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 2)
            #expect(try Self.step(port, "/steps", headers: ["Mockapi-Session": session.id]) == 3)
            #expect(try Self.step(port, "/steps") == 1)
            #expect(try Self.journal(port, session: session.id).count == 3)

            let conflict = try RawHTTP.request(port, "GET", "/s/\(session.id)/steps", headers: ["Mockapi-Session": "0123456789abcdef"])
            #expect(conflict.status == 400)
            let malformed = try RawHTTP.request(port, "GET", "/steps", headers: ["Mockapi-Session": "Not-An-Id"])
            #expect(malformed.status == 400)
            #expect(malformed.text.contains(#"session id \"Not-An-Id\" (in the header) is malformed"#), "\(malformed.text)")
        }
    }

    @Test func unknownIs404AndMalformedIs400() async throws {
        try await Self.withStepsServer { server in
            let unknown = try RawHTTP.request(server.port, "GET", "/s/0123456789abcdef/steps")
            #expect(unknown.status == 404)
            #expect(unknown.headers["content-type"] == "application/problem+json")
            let problem = try unknown.decoded(Problem.self)
            #expect(problem.type == "urn:mockapi:unknown-session")
            #expect(problem.detail.hasPrefix("session 0123456789abcdef does not exist"), "\(problem)")

            for bad in ["/s/xyz/steps", "/s/0123456789ABCDEF/steps", "/s//steps", "/s/0123456789abcdef0/steps"] {
                let response = try RawHTTP.request(server.port, "GET", bad)
                #expect(response.status == 400, "\(bad): \(response.text)")
                #expect(response.text.contains("is malformed: ids are 16 lowercase hex digits"), "\(bad)")
            }
            // Neither is journaled anywhere.
            #expect(try Self.journal(server.port).isEmpty)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?session=0123456789abcdef").status == 404)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests?session=nope").status == 400)
            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/sessions/0123456789abcdef").status == 404)
        }
    }

    /// `PUT /__mockapi/sessions/ID`: the client names the new session (a balancer routes by the
    /// id before the session exists); a taken id is a 409, a malformed one a 400, neither makes one.
    @Test func putMakesASessionWithTheIdTheClientChose() async throws {
        try await Self.withStepsServer(configure: { $0.maxSessions = 2 }) { server in
            let port = server.port
            let id = "00000000000000a7"
            let created = try RawHTTP.request(port, "PUT", "/__mockapi/sessions/\(id)", headers: ["Host": "localhost:\(port)"])
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json as? [String: String] == ["id": id, "baseURL": "http://localhost:\(port)/s/\(id)"])
            #expect(try Self.step(port, "/s/\(id)/steps") == 1)

            let taken = try RawHTTP.request(port, "PUT", "/__mockapi/sessions/\(id)")
            #expect(taken.status == 409)
            #expect(taken.text.contains("session \(id) already exists"), "\(taken.text)")
            #expect(try Self.step(port, "/s/\(id)/steps") == 2, "a refused PUT leaves the live session as it was")

            for bad in ["00000000000000A7", "a7", "00000000000000a7x"] {
                let response = try RawHTTP.request(port, "PUT", "/__mockapi/sessions/\(bad)")
                #expect(response.status == 400, "\(bad): \(response.text)")
            }
            #expect(try RawHTTP.request(port, "PUT", "/__mockapi/sessions/\(id)/reset").status == 405)
            _ = try Self.createSession(port)
            let full = try RawHTTP.request(port, "PUT", "/__mockapi/sessions/00000000000000b8")
            #expect(full.status == 429)
            #expect(try Self.sessions(port).count == 2)
            #expect(try RawHTTP.request(port, "DELETE", "/__mockapi/sessions/\(id)").status == 204)
            #expect(try RawHTTP.request(port, "PUT", "/__mockapi/sessions/\(id)").status == 201, "an ended session's id can be used again")
        }
    }

    @Test func adminPathsAreNotServedInsideASession() async throws {
        try await Self.withStepsServer { server in
            let session = try Self.createSession(server.port)
            let inside = try RawHTTP.request(server.port, "GET", "/s/\(session.id)/__mockapi/requests")
            #expect(inside.status == 404)
            #expect(inside.text.contains("admin endpoints are not served inside a session"), "\(inside.text)")
            let byHeader = try RawHTTP.request(server.port, "DELETE", "/__mockapi/requests", headers: ["Mockapi-Session": session.id])
            #expect(byHeader.status == 404)
        }
    }

    @Test func deleteEndsASessionAndResetStartsItOver() async throws {
        try await Self.withStepsServer { server in
            let port = server.port
            let session = try Self.createSession(port)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 1)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 2)

            let reset = try RawHTTP.request(port, "POST", "/__mockapi/sessions/\(session.id)/reset")
            #expect(reset.status == 200)
            #expect(try Self.journal(port, session: session.id).isEmpty)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 1)

            // The existing DELETEs take ?session= for one session's half, and keep their server-wide meaning without it.
            #expect(try Self.step(port, "/steps") == 1)
            #expect(try RawHTTP.request(port, "DELETE", "/__mockapi/scenarios?session=\(session.id)").status == 200)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 1)
            #expect(try Self.step(port, "/steps") == 2)
            #expect(try RawHTTP.request(port, "DELETE", "/__mockapi/requests?session=\(session.id)").status == 200)
            #expect(try Self.journal(port, session: session.id).isEmpty)
            #expect(try Self.journal(port).count == 2)
            #expect(try RawHTTP.request(port, "DELETE", "/__mockapi/scenarios").status == 200)
            #expect(try Self.step(port, "/steps") == 1)
            #expect(try Self.step(port, "/s/\(session.id)/steps") == 2)

            let deleted = try RawHTTP.request(port, "DELETE", "/__mockapi/sessions/\(session.id)")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            let after = try RawHTTP.request(port, "GET", "/s/\(session.id)/steps")
            #expect(after.status == 404)
            #expect(after.text.contains(session.id))
            #expect(try RawHTTP.request(port, "DELETE", "/__mockapi/sessions/\(session.id)").status == 404)
            #expect(try RawHTTP.request(port, "POST", "/__mockapi/sessions/\(session.id)/reset").status == 404)
        }
    }

    @Test func pastMaxSessionsCreateIs429WithRetryAfter() async throws {
        try await Self.withStepsServer(configure: { $0.maxSessions = 2 }) { server in
            let first = try Self.createSession(server.port)
            _ = try Self.createSession(server.port)
            let refused = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions")
            #expect(refused.status == 429)
            #expect(refused.headers["content-type"] == "application/problem+json")
            let retryAfter = try #require(refused.headers["retry-after"].flatMap { Int($0) })
            #expect(retryAfter >= 1 && retryAfter <= SessionRegistry.Limits.defaultIdleTimeoutSeconds)
            let problem = try refused.decoded(Problem.self)
            #expect(problem.type == "urn:mockapi:too-many-sessions")
            #expect(problem.detail.contains("limit of 2 sessions (mockapi serve --max-sessions)"))

            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/sessions/\(first.id)").status == 204)
            _ = try Self.createSession(server.port)
        }
    }

    /// Expiry with a 2 s idle timeout. The keep-alive half is checked only when the test really
    /// got its turn within the timeout: under a full parallel test run a 600 ms sleep has taken
    /// over a second, and the session then rightly expired.
    @Test func anIdleSessionExpires() async throws {
        try await Self.withStepsServer(configure: {
            $0.sessionIdleTimeoutSeconds = 2; $0.maxSessions = 1
        }) { server in
            let session = try Self.createSession(server.port)
            let path = "/s/\(session.id)/steps"
            // The server read the session's last use after `previousSent` and this request before
            // the answer came: so it found the session idle for less than the time between them.
            var previousSent = ContinuousClock.now
            // False once a gap may have passed the timeout: what follows is then not checked.
            var inTime = true
            #expect(try Self.step(server.port, path) == 1)
            for wanted in [2, 3] {
                try await onOwnThread { Thread.sleep(forTimeInterval: 0.5) }
                let sent = ContinuousClock.now
                let step = try Self.step(server.port, path)
                inTime = inTime && ContinuousClock.now - previousSent < .milliseconds(1_800)
                if inTime {
                    // Used within the timeout: kept alive.
                    #expect(step == wanted)
                }
                previousSent = sent
            }
            let full = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions")
            if inTime && ContinuousClock.now - previousSent < .milliseconds(1_800) {
                #expect(full.status == 429)
                #expect(["1", "2"].contains(full.headers["retry-after"] ?? ""), "\(full.headers)")
            }
            try await onOwnThread { Thread.sleep(forTimeInterval: 2.3) }
            let expired = try RawHTTP.request(server.port, "GET", path)
            #expect(expired.status == 404)
            #expect(expired.text.contains("expired after 2 s without a request"))
            #expect(try Self.sessions(server.port).isEmpty)
            // Its slot is free again.
            _ = try Self.createSession(server.port)
        }
    }

    @Test func sessionEndpointsAreGuardedLikeTheOtherAdminEndpoints() async throws {
        try await Self.withStepsServer(configure: { $0.adminToken = "s3cret" }) { server in
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/sessions").status == 403)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/sessions").status == 403)
            let made = try RawHTTP.request(server.port, "POST", "/__mockapi/sessions", headers: ["Mockapi-Admin-Token": "s3cret"])
            #expect(made.status == 201)
            let id = try #require((made.json as? [String: String])?["id"])
            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/sessions/\(id)").status == 403)
            let crossSite = try RawHTTP.request(
                server.port, "POST", "/__mockapi/sessions", headers: ["Mockapi-Admin-Token": "s3cret", "Origin": "https://evil.example"])
            #expect(crossSite.status == 403)
            // The session's own traffic is the API's, not admin: no token needed.
            #expect(try Self.step(server.port, "/s/\(id)/steps") == 1)
        }
    }

    /// 64 clients at once, each in its own session running the same scripted flow (four sequence
    /// steps, a journal read, a reset, two more steps, a journal read): none may see a step or a
    /// journal entry of another.
    @Test func sixtyFourParallelSessionsLeakNothing() async throws {
        try await Self.withStepsServer(configure: { $0.threads = 4 }) { server in
            let port = server.port
            let leaks = try await withThrowingTaskGroup(of: [String].self) { group in
                for client in 0..<64 {
                    group.addTask {
                        try await onOwnThread { try Self.scriptedFlow(port: port, client: client) }
                    }
                }
                var all: [String] = []
                for try await leaks in group { all += leaks }
                return all
            }
            #expect(leaks.isEmpty, "\(leaks.count) leaks: \(leaks.prefix(10))")
            print("sessions: 64 parallel sessions, \(leaks.count) leaks")
            #expect(try Self.journal(port).isEmpty)
        }
    }

    /// One client's flow; what it saw that was not its own, as lines.
    static func scriptedFlow(port: Int, client: Int) throws -> [String] {
        let session = try createSession(port)
        let mark = ["X-Client": String(client)]
        var leaks: [String] = []
        func expectSteps(_ wanted: [Int]) throws {
            for want in wanted {
                let got = try step(port, "/s/\(session.id)/steps", headers: mark)
                if got != want { leaks.append("client \(client): step \(got.map(String.init) ?? "nil"), expected \(want)") }
            }
        }
        func expectJournal(count: Int) throws {
            let entries = try journal(port, session: session.id)
            if entries.count != count { leaks.append("client \(client): \(entries.count) journal entries, expected \(count)") }
            for entry in entries {
                let from = entry.headers.first { $0.key.lowercased() == "x-client" }?.value
                if from != String(client) { leaks.append("client \(client): journal entry from client \(from ?? "none")") }
            }
        }
        try expectSteps([1, 2, 3, 4])
        try expectJournal(count: 4)
        let reset = try RawHTTP.request(port, "POST", "/__mockapi/sessions/\(session.id)/reset")
        if reset.status != 200 { leaks.append("client \(client): reset answered \(reset.status)") }
        try expectSteps([1, 2])
        try expectJournal(count: 2)
        let deleted = try RawHTTP.request(port, "DELETE", "/__mockapi/sessions/\(session.id)")
        if deleted.status != 204 { leaks.append("client \(client): delete answered \(deleted.status)") }
        return leaks
    }

    /// Create and delete, one after the other on one keep-alive connection: the median round
    /// trip of the pair, printed (not held to a figure: the machine is shared).
    @Test func createAndDeleteLatency() async throws {
        try await Self.withStepsServer { server in
            let client = try RawHTTP(port: server.port)
            var pairs: [Double] = []
            for _ in 0..<200 {
                let start = ContinuousClock.now
                try client.send("POST /__mockapi/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                let made = try #require(try client.readResponse())
                let id = try #require((made.json as? [String: String])?["id"])
                try client.send("DELETE /__mockapi/sessions/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let deleted = try #require(try client.readResponse())
                #expect(made.status == 201 && deleted.status == 204)
                let elapsed = ContinuousClock.now - start
                pairs.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            }
            pairs.sort()
            print("sessions: create+delete median \(Int(pairs[pairs.count / 2])) µs, p90 \(Int(pairs[pairs.count * 9 / 10])) µs over \(pairs.count) pairs")
            #expect((try? Self.sessions(server.port)) != nil)
        }
    }
}
