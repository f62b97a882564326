import Foundation
import MockAPITestSupport
import Testing

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// `mockapi probe`, the image's health check, against real servers and real sockets: exit 0 on
/// 200, 1 with one line otherwise, always within its timeout.
@Suite struct ProbeCommandTests {
    @Test func aServingServerIsReadyAndAlive() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let ready = try CommandLineRunner.run(["probe", "--url", server.baseURL])
        #expect(ready.status == 0)
        #expect(ready.stdout == "mockapi probe: \(server.baseURL)/__mockapi/ready: 200 ready\n")
        #expect(ready.stderr.isEmpty)
        let health = try CommandLineRunner.run(["probe", "health", "--url", server.baseURL + "/"])
        #expect(health.status == 0)
        #expect(health.stdout == "mockapi probe: \(server.baseURL)/__mockapi/health: 200 ok\n")
    }

    /// With no --url the probe goes where serve listens by the same variables; a container's
    /// 0.0.0.0 is asked on loopback.
    @Test func theDefaultURLFollowsServesEnvironment() throws {
        let server = try CommandLineRunner.Server(["--quiet", "--admin-token", "s3cret"], environment: ["MOCKAPI_HOST": "0.0.0.0"])
        defer { _ = server.stop() }
        let port = try #require(server.baseURL.split(separator: ":").last.map(String.init))
        let probe = try CommandLineRunner.run(["probe"], environment: ["MOCKAPI_HOST": "0.0.0.0", "MOCKAPI_PORT": port])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout == "mockapi probe: http://127.0.0.1:\(port)/__mockapi/ready: 200 ready\n")
    }

    @Test func aDeadPortIsRefused() throws {
        let port = try Self.closedPort()
        let probe = try CommandLineRunner.run(["probe", "--url", "http://127.0.0.1:\(port)"])
        #expect(probe.status == 1)
        #expect(probe.stdout.isEmpty)
        #expect(probe.stderr == "mockapi probe: http://127.0.0.1:\(port)/__mockapi/ready: connection refused\n")
    }

    /// A listener that accepts nothing: the connection opens (the kernel's backlog) and no answer
    /// ever comes. The timeout fires all the same.
    @Test func aServerThatNeverAnswersTimesOut() throws {
        let (descriptor, port) = try Self.silentListener()
        defer { close(descriptor) }
        let started = Date()
        let probe = try CommandLineRunner.run(["probe", "--url", "http://127.0.0.1:\(port)", "--timeout", "0.5"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(probe.status == 1)
        #expect(probe.stderr == "mockapi probe: http://127.0.0.1:\(port)/__mockapi/ready: no answer within 0.5 s\n")
        #expect(elapsed < 5, "bounded by --timeout (took \(elapsed) s)")
    }

    /// A broken edit under --watch: ready says 503 and the probe exits 1 saying so; the fix
    /// brings 200 back. health stays 200 throughout.
    @Test func aFailedReloadIs503UntilFixed() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        defer { _ = server.stop() }
        let probe = { (check: String) in try CommandLineRunner.run(["probe", check, "--url", server.baseURL]) }
        #expect(try probe("ready").status == 0)

        try set.write("{oops", to: "contracts/oops.json")
        #expect(try within(5) { try probe("ready").status == 1 }, "a failed reload is seen within 5 s")
        let failed = try probe("ready")
        #expect(failed.stderr == "mockapi probe: \(server.baseURL)/__mockapi/ready: 503 reload failed\n")
        #expect(try probe("health").status == 0)
        #expect(try curl([server.baseURL + "/__mockapi/ready"]) == "{\n  \"status\": \"reload failed\"\n}\n")

        try FileManager.default.removeItem(at: set.contracts.appendingPathComponent("oops.json"))
        #expect(try within(5) { try probe("ready").status == 0 }, "ready again within 5 s of the fix")
        // Probes are not the API's traffic: the journal, and so coverage, never sees them.
        #expect(try curl([server.baseURL + "/__mockapi/requests/count"]).contains(#""count": 0"#))
    }

    @Test func unusableFlagsAreUsageErrors() throws {
        let negative = try CommandLineRunner.run(["probe", "--timeout", "-5"])
        #expect(negative.status == 64)
        #expect(negative.stderr.hasPrefix("Error: --timeout must be seconds above 0, at most 3600 (it is \"-5\")\n"))
        let https = try CommandLineRunner.run(["probe", "--url", "https://127.0.0.1:8443"])
        #expect(https.status == 64)
        #expect(https.stderr.hasPrefix("Error: --url must be an http:// URL such as http://127.0.0.1:8080 (it is \"https://127.0.0.1:8443\")\n"))
    }

    /// A loopback port nothing listens on: bound, read back, closed.
    private static func closedPort() throws -> Int {
        let (descriptor, port) = try bound(listening: false)
        close(descriptor)
        return port
    }

    /// A loopback listener that never accepts: connections wait in its backlog unanswered.
    private static func silentListener() throws -> (Int32, Int) { try bound(listening: true) }

    private static func bound(listening: Bool) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, streamSocket, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 8) == 0) && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else {
            close(descriptor)
            throw CocoaError(.fileWriteUnknown)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
