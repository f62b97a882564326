import Foundation
import MockAPITestSupport
import Testing

/// What people type without reading the help: --version, -p, localhost, environment variables, typos.
struct CommandLineHabitsTests {
    /// The commit comes from the checkout the binary was built in (Plugins/BuildCommit): the
    /// tests' own checkout, since they run the binary built with them; "unknown" outside git.
    @Test func versionPrintsTheNameVersionAndCommit() throws {
        let result = try CommandLineRunner.run(["--version"])
        #expect(result.status == 0)
        let match = try #require(result.stdout.wholeMatch(of: /mockapi 0\.9\.0 \(([0-9a-f]{7,}|unknown)\)\n/), "\(result.stdout)")
        let commit = String(match.1)
        // HEAD itself, or an earlier commit when the tests run on a build made before the last commit.
        let checkout = try? ExternalTool.run(["git", "merge-base", "--is-ancestor", commit, "HEAD"], directory: BundledAPI.root)
        let isGitCheckout = (try? ExternalTool.run(["git", "rev-parse", "HEAD"], directory: BundledAPI.root).status) == 0
        #expect(isGitCheckout ? checkout?.status == 0 : commit == "unknown", "\(commit) is HEAD or one of its ancestors")
    }

    @Test func versionTypedAsACommandSuggestsTheOption() throws {
        for typed in ["version", "Version"] {
            let result = try CommandLineRunner.run([typed])
            #expect(result.status == 64)
            #expect(result.stderr == "Error: unknown command \"\(typed)\". Did you mean \"mockapi --version\"?\n")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aMistypedCommandNamesTheNearestOneAndExits64() throws {
        let serve = try CommandLineRunner.run(["serv"])
        #expect(serve.status == 64)
        #expect(serve.stderr == "Error: unknown command \"serv\". Did you mean \"serve\"?\n")
        #expect(serve.stdout.isEmpty)
        let verify = try CommandLineRunner.run(["verfy", "--strict"])
        #expect(verify.status == 64)
        #expect(verify.stderr == "Error: unknown command \"verfy\". Did you mean \"verify\"?\n")
        let nothingClose = try CommandLineRunner.run(["xyzzy"])
        #expect(nothingClose.status == 64)
        #expect(
            nothingClose.stderr
                == "Error: unknown command \"xyzzy\". Commands: serve, verify, coverage, lint, routes, import, export, diff, verify-backend, record, probe, help; see 'mockapi --help'.\n"
        )
    }

    @Test func shortPortAndLocalhostAsHost() throws {
        let server = try CommandLineRunner.Server(["-p", "0", "--host", "localhost", "--quiet"], portZero: false)
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/127\.0\.0\.1:[1-9][0-9]* \(19 routes\)/) != nil, "\(server.firstLine)")
        #expect(try curlStatus(server.baseURL + "/v1/categories") == "200")
        #expect(server.stop().status == 0)
    }

    @Test func environmentVariablesStandInForTheServeFlags() throws {
        let set = try TemporaryContractSet(
            contracts: ["ping.json": #"{"name": "ping", "request": {"method": "GET", "path": "/ping"}, "responses": {"default": {"status": 204}}}"#])
        let server = try CommandLineRunner.Server(
            ["--quiet"],
            environment: [
                "MOCKAPI_PORT": "0", "MOCKAPI_HOST": "localhost", "MOCKAPI_CONTRACTS": set.contracts.path, "MOCKAPI_FIXTURES": set.fixtures.path,
            ], portZero: false)
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/127\.0\.0\.1:[1-9][0-9]* \(1 routes\)/) != nil, "\(server.firstLine)")
        #expect(try curlStatus(server.baseURL + "/ping") == "204")
        _ = server.stop()
    }

    @Test func flagsBeatTheirEnvironmentVariables() throws {
        let server = try CommandLineRunner.Server(
            ["-p", "0", "--contracts", "contracts", "--fixtures", "fixtures", "--quiet"],
            environment: [
                "MOCKAPI_PORT": "not-a-port", "MOCKAPI_CONTRACTS": "/nonexistent/contracts", "MOCKAPI_FIXTURES": "/nonexistent/fixtures",
            ], portZero: false)
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/127\.0\.0\.1:[1-9][0-9]* \(19 routes\)/) != nil, "\(server.firstLine)")
        _ = server.stop()
    }

    @Test func aPortVariableThatIsNoPortIsAUsageError() throws {
        let result = try CommandLineRunner.run(["serve", "--quiet"], environment: ["MOCKAPI_PORT": "80800"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: MOCKAPI_PORT is \"80800\": expected a port number, 0 to 65535\n"), "\(result.stderr)")
    }

    @Test func aPortOutOfRangeNamesTheRange() throws {
        for port in ["-1", "70000", "x"] {
            let result = try CommandLineRunner.run(["serve", "--quiet", "--port", port])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: --port must be 0 to 65535 (it is \"\(port)\")\n"), "\(result.stderr)")
        }
    }

    /// `-5` after a numeric flag is its value, out of range: not a flag named `-5` that leaves
    /// the option "Missing value" (ArgumentParser's reading without `parsing: .unconditional`).
    @Test func aNegativeNumberIsOutOfRangeNotAMissingValue() throws {
        let serveFlags = [
            "--max-body-bytes", "--max-json-bytes", "--max-buffered-bytes", "--min-body-rate", "--timeout", "--max-connections",
            "--max-connections-per-ip", "--header-timeout", "--threads", "--journal-size", "--journal-bytes", "--max-delay", "--proxy-timeout",
            "--max-sessions", "--session-idle-timeout",
        ]
        for flag in serveFlags {
            let result = try CommandLineRunner.run(["serve", "--quiet", flag, "-5"])
            #expect(result.status == 2, "\(flag): \(result.stderr)")
            #expect(result.stderr.hasPrefix("mockapi: \(flag) -5 is out of range: "), "\(flag): \(result.stderr)")
        }
        let record = try CommandLineRunner.run(["record", "--target", "http://127.0.0.1:9", "--proxy-timeout", "-5"])
        #expect(record.status == 2, "\(record.stderr)")
        #expect(record.stderr.hasPrefix("mockapi: --proxy-timeout -5 is out of range: 1 to 3600 seconds\n"), "\(record.stderr)")
        let others: [(arguments: [String], says: String)] = [
            (["record", "--target", "http://127.0.0.1:9", "-p", "-5"], "Error: --port must be 0 to 65535 (it is \"-5\")\n"),
            (["coverage", "--base-url", "http://127.0.0.1:9", "--since", "-5"], "Error: --since -5 is out of range: a journal id, 0 or more\n"),
            (["verify-backend", "--base-url", "http://127.0.0.1:9", "--timeout", "-5"], "Error: --timeout -5 is out of range: 1 to 600 seconds\n"),
            (["verify-backend", "--base-url", "http://127.0.0.1:9", "--concurrency", "-5"], "Error: --concurrency -5 is out of range: 1 to 64\n"),
        ]
        for (arguments, says) in others {
            let result = try CommandLineRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(says), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"))
        }
    }

    @Test func aHostThatDoesNotResolveExitsTwo() throws {
        let result = try CommandLineRunner.run(["serve", "--port", "0", "--host", "no-such-host.invalid"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi: cannot listen on \"no-such-host.invalid\": no such host ("), "\(result.stderr)")
    }
}
