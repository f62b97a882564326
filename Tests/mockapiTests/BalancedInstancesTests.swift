import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// Three `mockapi serve` processes behind nginx (Debian's package), which keeps each session on
/// one of them by hashing its id (`hash $session_key consistent`): the path prefix `/s/ID`, the
/// `Mockapi-Session` header, `/__mockapi/sessions/ID` and `?session=ID` all give the same key.
/// The test chooses each session's id and creates it with `PUT /__mockapi/sessions/ID` through
/// nginx, so the instance the id hashes to is the one that holds it. Then `coverage` reads the
/// three instances as one.
@Suite(.serialized) struct BalancedInstancesTests {
    /// Drafts under a project, a stateful resource: list, create, read, merge, remove.
    static let contracts: [String: String] = [
        "list.json": #"""
        {"name": "list_drafts", "request": {"method": "GET", "path": "/v1/projects/{projectId:int}/drafts"},
         "resource": {"name": "drafts", "items": "/data"},
         "responses": {"default": {"status": 200, "fixture": "drafts.json"}}}
        """#,
        "create.json": #"""
        {"name": "create_draft", "request": {"method": "POST", "path": "/v1/projects/{projectId:int}/drafts",
           "json": {"title": {"type": "string"}}},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 201, "fixture": "draft.json"}}}
        """#,
        "read.json": #"""
        {"name": "read_draft", "request": {"method": "GET", "path": "/v1/projects/{projectId:int}/drafts/{id:int}"},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 200, "fixture": "draft.json"}, "gone": {"status": 404, "body": {"error": "no such draft"}}}}
        """#,
        "edit.json": #"""
        {"name": "edit_draft", "request": {"method": "PATCH", "path": "/v1/projects/{projectId:int}/drafts/{id:int}",
           "json": {}, "body": {"otherKeys": true, "contentTypes": ["application/merge-patch+json", "application/json"]}},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 200, "fixture": "draft.json"}}}
        """#,
        "remove.json": #"""
        {"name": "delete_draft", "request": {"method": "DELETE", "path": "/v1/projects/{projectId:int}/drafts/{id:int}"},
         "resource": {"name": "drafts"},
         "responses": {"default": {"status": 204}}}
        """#,
        "never.json": #"""
        {"name": "publish_draft", "request": {"method": "POST", "path": "/v1/projects/{projectId:int}/drafts/{id:int}/publish"},
         "responses": {"default": {"status": 200, "body": {}}}}
        """#,
    ]
    static let fixtures: [String: String] = [
        "drafts.json": #"{"data": [{"id": 1, "title": "First"}, {"id": 2, "title": "Second"}], "total": 2}"#,
        "draft.json": #"{"id": 1, "title": "First"}"#,
    ]

    /// The balancer's part of nginx.conf, as docs/server.md gives it (so the docs show the block
    /// this test runs): the session key from the path, the query or the header, and one upstream
    /// hashed on it. A request outside any session gets the key `-`, so all of them go to one
    /// instance, which then keeps their sequences and journal as a lone server would (an empty
    /// key would make nginx spread them round robin). The docs' three `server` lines and `listen`
    /// become this test's instances and port.
    static func balancer(port: Int, instances: [String]) throws -> String {
        let page = try String(contentsOf: BundledAPI.root.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let block = try #require(page.components(separatedBy: "```nginx\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let documented = ["server 127.0.0.1:8081;", "server 127.0.0.1:8082;", "server 127.0.0.1:8083;", "listen 8080;"]
        for line in documented { #expect(block.contains(line), "docs/server.md's nginx block has \(line)") }
        var configuration = block
        for (line, url) in zip(documented, instances) {
            configuration = configuration.replacingOccurrences(of: line, with: "server \(url.replacingOccurrences(of: "http://", with: ""));")
        }
        return configuration.replacingOccurrences(of: "listen 8080;", with: "listen 127.0.0.1:\(port);")
    }

    struct Answer {
        var status: Int
        var text: String
        /// The body as Foundation's decoder reads it; nil when it is not that shape.
        func decoded<Value: Decodable>(_ type: Value.Type) -> Value? { try? JSONDecoder().decode(type, from: Data(text.utf8)) }
        var draft: Draft? { decoded(Draft.self) }
    }

    // The answers' shapes: a draft, a page of drafts, a session as the admin API lists it.
    struct Draft: Decodable { var id: Int, title: String }
    struct Page: Decodable { var data: [Draft] }
    struct Made: Decodable { var baseURL: String }
    struct Listed: Decodable { var id: String, requests: Int }
    struct Entry: Decodable { var id: Int }
    struct Count: Decodable { var count: Int }

    /// One exchange with curl.
    static func send(_ method: String, _ url: String, json: String? = nil, headers: [String: String] = [:]) throws -> Answer {
        var arguments = ["curl", "-s", "--max-time", "10", "-w", "\n%{http_code}", "-X", method, url]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        let out = try ExternalTool.run(arguments).stdout
        let status = Int(out.split(separator: "\n").last ?? "") ?? 0
        let body = out.prefix(upTo: out.lastIndex(of: "\n") ?? out.startIndex)
        return Answer(status: status, text: String(body))
    }

    /// A session of the flow: its id, and how its requests name it (the path prefix or the header).
    struct Client {
        var id: String
        var byHeader: Bool
        var title: String { "draft of \(id)" }

        func url(_ nginx: Nginx, _ path: String) -> String { nginx.baseURL + (byHeader ? "" : "/s/\(id)") + path }
        var headers: [String: String] { byHeader ? ["Mockapi-Session": id] : [:] }

        func ids(_ answer: Answer) -> [Int] { answer.decoded(Page.self)?.data.map(\.id) ?? [] }
        func titles(_ answer: Answer) -> [String] { answer.decoded(Page.self)?.data.map(\.title) ?? [] }
    }

    /// Requests each client's flow sends, and how many of them each contract serves.
    static let flowRequests = 7
    static let flowServes = ["list_drafts": 3, "create_draft": 1, "read_draft": 1, "edit_draft": 1, "delete_draft": 1]

    @Test(.enabled(if: Nginx.executable != nil, "nginx is not installed: run scripts/setup (Debian package nginx)"))
    func sessionsStayOnOneInstanceBehindNginxAndCoverageReadsAllThree() throws {
        let set = try TemporaryContractSet(contracts: Self.contracts, fixtures: Self.fixtures)
        let instances = try (0..<3).map { _ in
            try CommandLineRunner.Server(["--quiet", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        }
        defer { for instance in instances { _ = instance.stop() } }
        let urls = instances.map(\.baseURL)
        let nginx = try Nginx { try Self.balancer(port: $0, instances: urls) }
        defer { nginx.stop() }

        // Twelve sessions, ids chosen here, made through nginx: the instance the id hashes to holds it.
        let clients = (0..<12).map { index in Client(id: SessionID.text(SessionID.make()), byHeader: index % 2 == 1) }
        for client in clients {
            let created = try Self.send("PUT", nginx.baseURL + "/__mockapi/sessions/\(client.id)")
            #expect(created.status == 201, "\(created.text)")
            #expect(created.decoded(Made.self)?.baseURL == "\(nginx.baseURL)/s/\(client.id)", "the base URL is the balancer's")
        }

        // The flow, one step for every client before the next step, so sessions sharing an
        // instance interleave; each answer is checked for another session's draft.
        var failures: [String] = []
        func check(_ client: Client, _ step: String, _ holds: Bool, _ answer: Answer) {
            if !holds { failures.append("\(client.id) \(step): \(answer.status) \(answer.text)") }
        }
        let path = "/v1/projects/7/drafts"
        for client in clients {
            let listed = try Self.send("GET", client.url(nginx, path), headers: client.headers)
            check(client, "first list", listed.status == 200 && client.ids(listed) == [1, 2], listed)
        }
        for client in clients {
            let created = try Self.send("POST", client.url(nginx, path), json: #"{"title": "\#(client.title)"}"#, headers: client.headers)
            check(client, "create", created.status == 201 && created.draft?.id == 3, created)
        }
        for client in clients {
            let listed = try Self.send("GET", client.url(nginx, path), headers: client.headers)
            check(client, "list after create", client.titles(listed) == ["First", "Second", client.title], listed)
        }
        for client in clients {
            let edited = try Self.send(
                "PATCH", client.url(nginx, path + "/3"), json: #"{"title": "edited \#(client.id)"}"#, headers: client.headers)
            check(client, "edit", edited.status == 200 && edited.draft?.title == "edited \(client.id)", edited)
        }
        for client in clients {
            let read = try Self.send("GET", client.url(nginx, path + "/3"), headers: client.headers)
            check(client, "read", read.draft?.title == "edited \(client.id)", read)
        }
        for client in clients {
            let removed = try Self.send("DELETE", client.url(nginx, path + "/1"), headers: client.headers)
            check(client, "delete", removed.status == 204, removed)
        }
        for client in clients {
            let listed = try Self.send("GET", client.url(nginx, path), headers: client.headers)
            check(client, "last list", client.ids(listed) == [2, 3] && client.titles(listed).last == "edited \(client.id)", listed)
        }
        #expect(failures.isEmpty, "leaks or failures: \(failures)")
        // Requests without a session: all on one instance, in its server-wide journal.
        for _ in 0..<3 { #expect(try Self.send("GET", nginx.baseURL + path).status == 200) }
        let plainCounts = try urls.map { url in try #require(try Self.send("GET", url + "/__mockapi/requests/count").decoded(Count.self)?.count) }
        #expect(plainCounts.sorted() == [0, 0, 3], "\(plainCounts)")

        // Each session lives on exactly one instance, and all of its requests were journaled there.
        var placement: [String: Int] = [:]
        for (index, url) in urls.enumerated() {
            let listed = try #require(try Self.send("GET", url + "/__mockapi/sessions").decoded([Listed].self))
            for session in listed {
                let id = session.id
                #expect(placement[id] == nil, "session \(id) is on two instances")
                placement[id] = index
                #expect(session.requests == Self.flowRequests, "\(session)")
                let journal = try Self.send("GET", url + "/__mockapi/requests?session=\(id)")
                #expect(journal.decoded([Entry].self)?.count == Self.flowRequests, "session \(id)'s journal on instance \(index)")
            }
        }
        #expect(Set(placement.keys) == Set(clients.map(\.id)))
        #expect(Set(placement.values).count >= 2, "12 random ids all hashed to one instance: \(placement)")
        // The session's admin calls reach its instance through nginx too (`?session=`, `/__mockapi/sessions/ID`).
        for client in clients.prefix(2) {
            let journal = try Self.send("GET", nginx.baseURL + "/__mockapi/requests?session=\(client.id)")
            #expect(journal.decoded([Entry].self)?.count == Self.flowRequests)
        }

        // Coverage over the three instances and all their sessions: every flow request counted once.
        let coverage = try CommandLineRunner.run(["coverage", "--format", "json", "--all-sessions"] + urls.flatMap { ["--base-url", $0] })
        #expect(coverage.status == 0, "\(coverage.stdout)\(coverage.stderr)")
        let report = try CoverageDocument.read(coverage.stdout)
        #expect(report.summary.requests == clients.count * Self.flowRequests + 3)
        #expect(report.summary.uncoveredContracts == ["publish_draft"])
        let served = Dictionary(uniqueKeysWithValues: report.contracts.map { ($0.name, $0.served) })
        var expected = Self.flowServes.mapValues { $0 * clients.count }
        expected["list_drafts", default: 0] += 3
        expected["publish_draft"] = 0
        #expect(served == expected)
        #expect(report.target == urls.joined(separator: ", ") + " (and all their sessions)")

        // Without the sessions, only the three requests made outside them.
        let plain = try CommandLineRunner.run(["coverage", "--format", "json"] + urls.flatMap { ["--base-url", $0] })
        #expect(try CoverageDocument.read(plain.stdout).summary.requests == 3)
    }
}
