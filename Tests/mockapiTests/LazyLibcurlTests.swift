import Foundation
import MockAPITestSupport
import Testing

/// libcurl is loaded when first sent through (Sources/CCurlShims/lazy_curl.c), not when mockapi
/// starts: `serve` needs none of it, and what does send through it says why when it is missing.
struct LazyLibcurlTests {
    /// A libcurl that cannot be loaded: `$MOCKAPI_LIBCURL` names a file that is not there.
    private static let missing = ["MOCKAPI_LIBCURL": "/nonexistent/libcurl.so.4"]
    private static let reason = "libcurl could not be loaded (/nonexistent/libcurl.so.4: cannot open shared object file"

    /// The binary itself does not ask the loader for libcurl (in a release build, with Foundation
    /// linked in, nothing else does either: a start maps none of its 20 libraries).
    @Test func theBinaryDoesNotNeedLibcurlToStart() throws {
        let dynamic = try ExternalTool.run(["readelf", "--dynamic", CommandLineRunner.binary.path])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        #expect(dynamic.stdout.contains("Shared library: [libmicrohttpd.so"), "the dynamic section was read: \(dynamic.stdout)")
        #expect(!dynamic.stdout.contains("libcurl"), "\(dynamic.stdout)")
    }

    @Test func serveAnswersWithoutLibcurlAndAProxiedRequestSaysWhyIt502s() throws {
        let server = try CommandLineRunner.Server(["--proxy-unmatched", "http://127.0.0.1:9", "--quiet"], environment: Self.missing)
        defer { _ = server.stop() }
        let mocked = try Curl.run(["-s", "-i", server.baseURL + "/v1/users/42"])
        #expect(mocked.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(mocked.stdout)")
        let proxied = try Curl.run(["-s", "-i", server.baseURL + "/v1/no-contract-takes-this"])
        #expect(proxied.stdout.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(proxied.stdout)")
        #expect(proxied.stdout.contains(Self.reason), "\(proxied.stdout)")
    }

    @Test func verifyBackendSaysOnceThatLibcurlIsMissing() throws {
        let result = try CommandLineRunner.run(["verify-backend", "--base-url", "http://127.0.0.1:9"], environment: Self.missing)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi verify-backend: " + Self.reason), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("install libcurl (Debian: libcurl4)\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no check ran: \(result.stdout)")
    }
}
