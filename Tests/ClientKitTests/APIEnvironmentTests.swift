import ClientKit
import Foundation
import Testing

@Suite struct APIEnvironmentTests {
    private let production = APIEnvironment(name: "production", baseURL: URL(string: "https://api.example.com")!)

    @Test func localPointsAtLoopback() {
        #expect(APIEnvironment.local(port: 9000).baseURL.absoluteString == "http://127.0.0.1:9000")
    }

    @Test func parseAcceptsKnownNamesLocalPortsAndURLs() {
        #expect(APIEnvironment.parse("production", known: [production]) == production)
        #expect(APIEnvironment.parse("local:8080") == .local(port: 8080))
        #expect(APIEnvironment.parse("https://staging.example.com")?.baseURL.absoluteString == "https://staging.example.com")
    }

    @Test func parseRefusesAnythingElse() {
        #expect(APIEnvironment.parse("staging", known: [production]) == nil)
        #expect(APIEnvironment.parse("local:0") == nil)
        #expect(APIEnvironment.parse("local:http") == nil)
        #expect(APIEnvironment.parse("ftp://example.com") == nil)
    }
}
