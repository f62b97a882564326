import Foundation
import Testing

/// `mockapi serve` flags that keep a developer's secrets and machine safe.
struct ServeSecurityCommandTests {
    @Test func redactHeaderAndItsVariableAddNamesToTheUsualCredentials() throws {
        let server = try CommandLineRunner.Server(
            ["--verbose", "--redact-header", "X-Signature"],
            environment: ["MOCKAPI_REDACT_HEADERS": "X-Tenant, X-Other"])
        _ = try Curl.run([
            "-s", "-o", "/dev/null", "-H", "X-Signature: sig-value", "-H", "X-Tenant: tenant-value",
            "-H", "X-Api-Key: key-value", "-H", "X-Trace: kept", server.baseURL + "/v1/categories",
        ])
        let stderr = server.stop().stderr
        #expect(stderr.contains("    > X-Signature: [redacted]\n"), "\(stderr)")
        #expect(stderr.contains("    > X-Tenant: [redacted]\n"), "\(stderr)")
        #expect(stderr.contains("    > X-Api-Key: [redacted]\n"), "\(stderr)")
        #expect(stderr.contains("    > X-Trace: kept\n"), "\(stderr)")
        #expect(!stderr.contains("-value"))
    }

    @Test func listeningOnTheIPv6WildcardSaysItTakesBothFamilies() throws {
        let server = try CommandLineRunner.Server(["--host", "::", "--quiet"])
        #expect(
            server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/\[::\]:[1-9][0-9]* \(19 routes, IPv4 and IPv6\)/) != nil,
            "\(server.firstLine)")
        let port = String(server.baseURL.split(separator: ":").last ?? "")
        #expect(try curlStatus("http://127.0.0.1:\(port)/v1/categories") == "200")
        #expect(try curlStatus("http://[::1]:\(port)/v1/categories") == "200")
        _ = server.stop()
    }
}
