import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// `GET /__mockapi/health` and `GET /__mockapi/ready` over real sockets: what a container's
/// health check and an orchestrator's probes see, whatever the admin guard and the journal do.
@Suite struct ProbeEndpointTests {
    private func status(_ response: RawHTTP.Response) -> String? { (try? response.decoded([String: String].self))?["status"] }

    @Test func healthAndReadyAnswer200WithAStatusWordOnly() async throws {
        try await withMockServer { (server: RunningMockServer) async throws in
            let health = try RawHTTP.request(server.port, "GET", "/__mockapi/health")
            #expect(health.status == 200)
            #expect(try health.decoded([String: String].self) == ["status": "ok"])
            #expect(health.headers["cache-control"] == "no-store")
            let ready = try RawHTTP.request(server.port, "GET", "/__mockapi/ready")
            #expect(ready.status == 200)
            #expect(try ready.decoded([String: String].self) == ["status": "ready"])
            #expect(ready.headers["mockapi-contract"] == nil)
        }
    }

    @Test func headAnswersWithoutABodyAndOtherMethodsGet405() async throws {
        try await withMockServer { (server: RunningMockServer) async throws in
            for path in ["/__mockapi/health", "/__mockapi/ready"] {
                let head = try ExternalTool.run(["curl", "--max-time", "10", "-sS", "-I", "http://127.0.0.1:\(server.port)\(path)"])
                #expect(head.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(head.stdout)")
                let post = try RawHTTP.request(server.port, "POST", path)
                #expect(post.status == 405)
                #expect(post.headers["allow"] == "GET, HEAD")
            }
        }
    }

    /// Probes send neither the admin token nor a loopback Host (a kubelet names the pod's IP).
    @Test func answeredOutsideTheHostGuardAndTheAdminToken() async throws {
        try await withMockServer(configure: { $0.adminToken = "s3cret" }) { (server: RunningMockServer) async throws in
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/requests").status == 403, "the guard is on")
            for path in ["/__mockapi/health", "/__mockapi/ready"] {
                #expect(try RawHTTP.request(server.port, "GET", path).status == 200, "\(path) without the token")
                #expect(try RawHTTP.request(server.port, "GET", path, headers: ["Host": "10.1.2.3:8080"]).status == 200, "\(path) with a pod's Host")
            }
        }
        try await withMockServer { (server: RunningMockServer) async throws in
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/routes", headers: ["Host": "attacker.example"]).status == 403)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/ready", headers: ["Host": "attacker.example"]).status == 200)
        }
    }

    @Test func probesAreNotJournaled() async throws {
        try await withMockServer { (server: RunningMockServer) async throws in
            for _ in 0..<3 {
                _ = try RawHTTP.request(server.port, "GET", "/__mockapi/health")
                _ = try RawHTTP.request(server.port, "GET", "/__mockapi/ready")
            }
            _ = try RawHTTP.request(server.port, "GET", "/v1/categories")
            #expect(server.journal().map(\.path) == ["/v1/categories"])
            let count = try RawHTTP.request(server.port, "GET", "/__mockapi/requests/count")
            #expect(try count.decoded([String: Int].self)["count"] == 1)
        }
    }

    @Test func readyIs503AfterAFailedReloadAnd200AfterAGoodOne() async throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try await withMockServer(
            contracts: set.contracts, fixtures: set.fixtures,
            configure: { $0.reloadSource = (set.contracts.path, set.fixtures.path) }
        ) { (server: RunningMockServer) async throws in
            try set.write("{broken", to: "contracts/broken.json")
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload").status == 422)
            let failed = try RawHTTP.request(server.port, "GET", "/__mockapi/ready")
            #expect(failed.status == 503)
            #expect(try failed.decoded([String: String].self) == ["status": "reload failed"], "the status only: no file, no problem")
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/health").status == 200, "alive all the same")
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200, "the previous set still serves")

            try FileManager.default.removeItem(at: set.contracts.appendingPathComponent("broken.json"))
            #expect(try RawHTTP.request(server.port, "POST", "/__mockapi/reload").status == 200)
            #expect(try RawHTTP.request(server.port, "GET", "/__mockapi/ready").status == 200)

            // The in-process API moves it the same way.
            try set.write("{broken", to: "contracts/broken.json")
            #expect(throws: ContractSetError.self) { try server.server.reload().get() }
            #expect(status(try RawHTTP.request(server.port, "GET", "/__mockapi/ready")) == "reload failed")
        }
    }
}
