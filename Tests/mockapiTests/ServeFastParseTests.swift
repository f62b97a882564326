import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPITestSupport
import Testing

@testable import mockapi

/// `serve` parsed by `Serve` alone (`ServeFastParse`) must be what the root parse makes of the
/// same line; anything else must go to the root parse, whose words and exit codes stay.
/// Serialized: the fast parse turns `Serve.validatesWhenParsed` off while it runs, in process.
@Suite(.serialized)
struct ServeFastParseTests {
    /// What a parsed `serve` goes on to use: the served set's flags and the server's configuration.
    private func described(_ serve: MockAPICommand.Serve) throws -> String {
        let configuration = try serve.options.configuration(host: "127.0.0.1", tls: nil)
        return "\(serve.contractOptions.contracts) \(serve.contractOptions.fixtures) \(serve.openapi ?? "-") \(serve.watch) \(configuration)"
    }

    private func rootParse(_ arguments: [String]) throws -> MockAPICommand.Serve {
        try #require(try MockAPICommand.parseAsRoot(["serve"] + arguments) as? MockAPICommand.Serve)
    }

    @Test(arguments: [
        [],
        ["--port", "0", "--quiet"],
        ["-p", "9000", "--host", "::1", "--cors"],
        ["--contracts", "contracts", "--fixtures", "fixtures", "--watch"],
        ["--delay", "200-800", "--max-connections", "50", "--redact-header", "X-Secret"],
        ["--admin-token", "t0ken", "--journal-size", "10"],
    ])
    func plainLinesParseAsTheRootParsesThem(_ arguments: [String]) throws {
        let fast = try #require(ServeFastParse.serve(arguments))
        #expect(try described(fast) == described(rootParse(arguments)))
    }

    /// The `serve` the plain read makes of a line, or nil when it refuses it or leaves it to ArgumentParser.
    private func plainRead(_ arguments: [String]) -> MockAPICommand.Serve? {
        if case .read(let serve) = ServePlainRead.read(arguments) { return serve }
        return nil
    }

    /// Options still in ArgumentParser's definition state: one the plain read left unset, which
    /// the server would trap on reading.
    private func unsetOptions(_ value: Any, path: String = "serve") -> [String] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .enum, mirror.children.first?.label == "definition" { return [path] }
        return mirror.children.flatMap { unsetOptions($0.value, path: path + "." + ($0.label ?? "?")) }
    }

    /// The lines the plain read takes, each option set and read as ArgumentParser reads it.
    @Test(arguments: [
        [],
        ["--port", "0", "--quiet"],
        ["-p", "9000", "--host", "::1", "--cors", "--verbose"],
        ["--contracts", "contracts", "--fixtures", "fixtures", "--watch"],
        ["--threads", "16", "--max-connections", "50", "--max-connections-per-ip", "1024", "--log-format", "json"],
        ["--host", "localhost", "--port", "+8081", "--log-format", "text", "--threads", "1"],
        ["--contracts", "", "--port", "65535"],
    ])
    func plainLinesAreReadWithoutArgumentParserAsItReadsThem(_ arguments: [String]) throws {
        let plain = try #require(plainRead(arguments))
        #expect(unsetOptions(plain) == [])
        let parsed = try rootParse(arguments)
        #expect(try described(plain) == described(parsed))
        #expect(plain.options.journal.logFormat == parsed.options.journal.logFormat)
        #expect(plain.options.journal.verbose == parsed.options.journal.verbose)
    }

    /// The check above can fail: a group nobody parsed, put in a plain `Serve`, has all nine
    /// options unset, and each is found.
    @Test func anOptionLeftUnsetIsFound() throws {
        var serve = try #require(plainRead([]))
        serve.options.limits = LimitOptions()
        #expect(unsetOptions(serve).count == 9)
    }

    /// Anything past the plain read's flags, a repeated flag, a value that could be a flag or is
    /// not its option's kind, and a line that fails a check: ArgumentParser's to read or refuse.
    @Test(arguments: [
        ["--delay", "200"], ["--port=8080"], ["--port", "1", "--port", "2"], ["-p", "1", "--port", "2"], ["--quiet", "--quiet"],
        ["--port"], ["--host", "-x"], ["--port", "-1"], ["--threads", "many"], ["--threads", "-1"], ["--log-format", "yaml"],
        ["--port", "70000"], ["--threads", "0"], ["--max-connections", "0"], ["--quiet", "extra"], ["--help"], ["-h"],
        ["--tls-self-signed"], ["--admin-token", "t"], ["--", "--quiet"],
    ])
    func otherLinesAreLeftToArgumentParser(_ arguments: [String]) {
        #expect(plainRead(arguments) == nil)
    }

    /// A plain line a check refuses goes straight to the root parse, which says why: parsing it
    /// as `Serve` alone first would fail the same check (a debug build took 1.5 s to refuse it).
    @Test(arguments: [["--port", "70000"], ["--threads", "0"], ["--max-connections", "0"], ["--quiet", "--port", "99999"]])
    func aPlainLineACheckRefusesIsRefusedNotReadAgain(_ arguments: [String]) {
        guard case .refused = ServePlainRead.read(arguments) else {
            Issue.record("\(arguments) was not refused by its check")
            return
        }
        #expect(ServeFastParse.serve(arguments) == nil)
    }

    @Test(arguments: [
        ["--bogus"], ["--port", "x"], ["--port", "70000"], ["--delay", "slow"], ["--help"], ["-h"], ["--quiet", "-help"],
        ["--help-hidden"], ["--version"], ["help"], ["--generate-completion-script", "bash"], ["--experimental-dump-help"],
        ["---completion"], ["--tls-cert", "contracts"], ["--proxy-ca-file", "contracts"],
    ])
    func anythingElseGoesToTheRootParse(_ arguments: [String]) {
        #expect(ServeFastParse.serve(arguments) == nil)
    }

    /// The binary, which takes the fast way, fails as the root parse does: same words, same status.
    @Test(arguments: [["--bogus"], ["--port", "x"], ["--tls-cert", "contracts"]])
    func usageErrorsAreTheRootParsesWordForWord(_ arguments: [String]) throws {
        let error = try #require(throws: (any Error).self) { try MockAPICommand.parseAsRoot(["serve"] + arguments) }
        let run = try CommandLineRunner.run(["serve"] + arguments)
        #expect(run.stderr == MockAPICommand.fullMessage(for: error) + "\n")
        #expect(run.status == MockAPICommand.exitCode(for: error).rawValue)
    }

    /// A check that fails in `validate()` (a bad value, a flag's file) is said once, exit 2: the
    /// fast way's own try is quiet.
    @Test(arguments: [
        (["--delay", "slow"], "mockapi: --delay slow: expected"),
        (["--proxy-ca-file", "contracts"], #"mockapi: --proxy-ca-file "contracts" cannot be read: it is a folder, not a regular file"#),
    ])
    func failedChecksAreSaidOnce(_ arguments: [String], _ message: String) throws {
        let run = try CommandLineRunner.run(["serve"] + arguments)
        #expect(run.stderr.hasPrefix(message))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.status == 2)
    }

    /// `--help` is the root's screen (`USAGE: mockapi serve`, not `USAGE: serve`), exit 0.
    @Test func helpIsTheRootsScreen() throws {
        let run = try CommandLineRunner.run(["serve", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: mockapi serve <options>"))
    }

    /// Defaults from the environment hold on the fast way too: the set and the port come from it.
    @Test func environmentDefaultsHold() throws {
        let root = BundledAPI.root.path
        let server = try CommandLineRunner.Server(
            ["--quiet"],
            environment: ["MOCKAPI_CONTRACTS": root + "/contracts", "MOCKAPI_FIXTURES": root + "/fixtures", "MOCKAPI_PORT": "0"],
            portZero: false, directory: FileManager.default.temporaryDirectory)
        defer { _ = server.stop() }
        #expect(server.firstLine.hasPrefix("mockapi listening on http://127.0.0.1:"))
        #expect(!server.firstLine.contains(":8080 "))
        #expect(!server.firstLine.contains("(0 routes"))
    }
}
