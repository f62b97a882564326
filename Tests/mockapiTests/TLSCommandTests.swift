import Foundation
import MockAPITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mockapi serve` over HTTPS: real sockets on 127.0.0.1, curl and URLSession as clients.
struct TLSCommandTests {
    @Test func selfSignedCertificateIsTrustedByCurlGivenItAndRefusedWithoutIt() throws {
        let server = try CommandLineRunner.Server(["--tls-self-signed", "--quiet"])
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on https:\/\/127\.0\.0\.1:[1-9][0-9]* \(19 routes\)/) != nil, "\(server.firstLine)")
        let note = server.nextLine()
        let certificate = try #require(note.wholeMatch(of: /mockapi: self-signed certificate for localhost and 127\.0\.0\.1 \(30 days, removed at exit\): (.+\/cert\.pem)/)?.1)
        let port = server.baseURL.split(separator: ":").last ?? ""

        for url in [server.baseURL, "https://localhost:\(port)"] {
            let trusted = try Curl.run(["-s", "-i", "--cacert", String(certificate), url + "/v1/users/42"])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(trusted.stdout)")
            #expect(trusted.stdout.contains("\r\nMockapi-Contract: user\r\n"))
        }
        let untrusted = try Curl.run(["-sS", "-o", "/dev/null", server.baseURL + "/v1/users/42"])
        #expect(untrusted.status == 60, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("SSL certificate problem: self-signed certificate"), "\(untrusted.stderr)")
        let plain = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/v1/users/42"])
        #expect(plain.stdout != "200")

        #expect(server.stop().status == 0)
        #expect(!FileManager.default.fileExists(atPath: String(certificate)), "the generated certificate outlived the server")
    }

    @Test func givenCertificateAndKeyServeHTTPS() throws {
        let pair = try CertificatePair()
        let server = try CommandLineRunner.Server(["--tls-cert", pair.certificate, "--tls-key", pair.key, "--quiet"])
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"), "\(server.firstLine)")
        let trusted = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", pair.certificate, server.baseURL + "/v1/categories"])
        #expect(trusted.stdout == "200")
        _ = server.stop()
    }

    @Test func aBodyRefusedMidStreamIsAnsweredThroughTLS() throws {
        // Past twice the limit a chunked body is answered at once, outside libmicrohttpd: on HTTPS
        // that answer must still go through the TLS session to be readable. The client is still
        // sending 4 MB when the answer goes: closed at once, the socket's reset reached curl before
        // it read the 413 (about 1 in 10, `000` or `100`); the server now reads on until the client stops.
        let server = try CommandLineRunner.Server(["--tls-self-signed", "--quiet", "--max-body-bytes", "100"])
        let certificate = String(server.nextLine().split(separator: ": ").last ?? "")
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("tls-body-\(UUID().uuidString)")
        try Data(count: 4 << 20).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        var statuses: [String] = []
        for _ in 0..<10 {
            let refused = try Curl.run([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, "-H", "Transfer-Encoding: chunked",
                "--data-binary", "@" + body.path, server.baseURL + "/v1/projects/42/star",
            ])
            statuses.append(refused.stdout)
        }
        #expect(statuses == Array(repeating: "413", count: 10))
        _ = server.stop()
    }

    @Test func unusableCertificateOrKeyExitsTwoWithOneLine() throws {
        let pair = try CertificatePair(), other = try CertificatePair()
        let cases: [(arguments: [String], message: String)] = [
            (
                ["--tls-cert", "/nonexistent/cert.pem", "--tls-key", pair.key],
                #"mockapi: --tls-cert "/nonexistent/cert.pem" cannot be read: No such file or directory"#
            ),
            (
                ["--tls-cert", pair.key, "--tls-key", pair.certificate],
                #"mockapi: --tls-cert "\#(pair.key)" holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)"#
            ),
            (
                ["--tls-cert", pair.certificate, "--tls-key", pair.certificate],
                #"mockapi: --tls-key "\#(pair.certificate)" holds no PEM private key (no "-----BEGIN … PRIVATE KEY-----" line)"#
            ),
            (
                ["--tls-cert", pair.certificate, "--tls-key", other.key],
                #"mockapi: --tls-cert "\#(pair.certificate)" and --tls-key "\#(other.key)" cannot be used: The certificate and the given key do not match."#
            ),
        ]
        for (arguments, message) in cases {
            let result = try CommandLineRunner.run(["serve", "--port", "0"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message + "\n")
            #expect(result.stdout.isEmpty)
        }
        let half = try CommandLineRunner.run(["serve", "--port", "0", "--tls-cert", pair.certificate])
        #expect(half.status == 64)
        #expect(half.stderr.hasPrefix("Error: --tls-cert and --tls-key go together\n"))
    }

    /// FoundationNetworking on Linux cannot be told to trust a CA of one's own: it has no
    /// server-trust challenge, and its libcurl takes neither a CA file setting nor SSL_CERT_FILE.
    /// What can be checked is that URLSession meets the TLS server and refuses the unknown
    /// certificate, as a client that was not given it must.
    @Test func urlSessionRefusesTheSelfSignedCertificateOnLinux() async throws {
        let server = try CommandLineRunner.Server(["--tls-self-signed", "--quiet"])
        defer { _ = server.stop() }
        let url = try #require(URL(string: server.baseURL + "/v1/users/42"))
        do {
            _ = try await URLSession.shared.data(from: url)
            Issue.record("URLSession accepted a certificate nobody told it to trust")
        } catch {
            #expect("\(error)".contains("SSL certificate problem: self-signed certificate"), "\(error)")
        }
    }
}

/// A fresh self-signed certificate and key, made with openssl in a temporary folder that goes with it.
final class CertificatePair {
    let folder: URL
    let certificate: String
    let key: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificate = folder.appendingPathComponent("cert.pem").path
        key = folder.appendingPathComponent("key.pem").path
        let openssl = try ExternalTool.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        guard openssl.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
