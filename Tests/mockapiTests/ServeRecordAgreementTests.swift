import Foundation
import Testing

/// `serve` and `record` share their listening, admin and forwarding options (one declaration
/// each): run with the same environment and flags, they listen on the same address and refuse
/// the same things in the same words.
@Suite(.serialized)
struct ServeRecordAgreementTests {
    /// A `record` that forwards nowhere reachable: it still listens, which is all these tests need.
    private static let record = ["record", "--target", "http://127.0.0.1:9", "--out", "/nonexistent/recorded"]

    @Test func bothListenWhereTheEnvironmentSays() throws {
        // A port known to be free a moment ago: the one a `--port 0` server was given.
        let probe = try CommandLineRunner.Server(["--quiet"])
        let port = try #require(URL(string: probe.baseURL)?.port)
        _ = probe.stop()
        let environment = ["MOCKAPI_HOST": "localhost", "MOCKAPI_PORT": String(port)]
        let serve = try CommandLineRunner.Server(["--quiet"], environment: environment, portZero: false)
        let served = serve.baseURL
        _ = serve.stop()
        let record = try CommandLineRunner.Server(Array(Self.record.dropFirst()) + ["--quiet"], environment: environment, portZero: false, command: "record")
        let recorded = record.baseURL
        _ = record.stop()
        #expect(served == "http://127.0.0.1:\(port)")
        #expect(recorded == served, "serve: \(served), record: \(recorded)")
    }

    @Test(
        arguments: [
            (["--port", "-1"], [:]),
            (["--port", "65536"], [:]),
            ([], ["MOCKAPI_PORT": "80800"]),
            (["--admin-token", ""], [:]),
            (["--proxy-timeout", "0"], [:]),
            (["--proxy-timeout", "-5"], [:]),
            (["--proxy-ca-file", "/nonexistent/ca.pem"], [:]),
            (["--port", "0", "--host", "no-such-host.invalid"], [:]),
            (["--port", "0"], ["MOCKAPI_HOST": "no-such-host.invalid"]),
        ] as [([String], [String: String])])
    func bothRefuseTheSameThingsAlike(flags: [String], environment: [String: String]) throws {
        let serve = try CommandLineRunner.run(["serve", "--quiet"] + flags, environment: environment)
        let record = try CommandLineRunner.run(Self.record + ["--quiet"] + flags, environment: environment)
        #expect(serve.status != 0)
        #expect(record.status == serve.status, "\(flags) \(environment): serve \(serve.status), record \(record.status)")
        // The first line says what is wrong; a usage error's next line is the command's own usage.
        let said = (serve: serve.stderr.split(separator: "\n").first, record: record.stderr.split(separator: "\n").first)
        #expect(said.serve != nil)
        #expect(said.record == said.serve, "\(flags) \(environment):\nserve: \(serve.stderr)\nrecord: \(record.stderr)")
    }

    /// `record --timeout` and `--ca-file`, the names before `--proxy-timeout` and `--proxy-ca-file`:
    /// still read for one release, said to be renamed, and out of `--help`.
    @Test func recordsOldFlagNamesStillWorkForOneRelease() throws {
        let timeout = try CommandLineRunner.run(Self.record + ["--quiet", "--timeout", "-5"])
        #expect(timeout.status == 2)
        #expect(
            timeout.stderr.hasPrefix(
                "mockapi record: warning: --timeout is now --proxy-timeout; the old name goes in the next release\n"
                    + "mockapi: --proxy-timeout -5 is out of range: 1 to 3600 seconds\n"), "\(timeout.stderr)")
        let caFile = try CommandLineRunner.run(Self.record + ["--quiet", "--ca-file", "/nonexistent/ca.pem"])
        #expect(caFile.status == 2)
        #expect(
            caFile.stderr.hasPrefix(
                "mockapi record: warning: --ca-file is now --proxy-ca-file; the old name goes in the next release\n"
                    + "mockapi: --proxy-ca-file \"/nonexistent/ca.pem\" cannot be read: "), "\(caFile.stderr)")
        let help = try CommandLineRunner.run(["record", "--help"])
        #expect(help.stdout.contains("--proxy-timeout") && help.stdout.contains("--proxy-ca-file"), "\(help.stdout)")
        #expect(!help.stdout.contains("--timeout") && !help.stdout.contains("--ca-file "), "\(help.stdout)")
    }
}
