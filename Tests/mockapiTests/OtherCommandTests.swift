import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct OtherCommandTests {
    @Test func helpTextIsPinned() throws {
        let result = try CommandLineRunner.run(["--help"])
        #expect(result.status == 0)
        expectPinned(
            result.stdout,
            """
            OVERVIEW: A mock API server and contract-test harness for Swift API clients.

            USAGE: mockapi <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              serve                   Serve the contract set over HTTP until SIGINT or
                                      SIGTERM.
              verify                  Fire every route of the client at the server and
                                      check each against its contract.
              coverage                Read a running server's journal: fail on requests
                                      that matched no contract or broke one.
              lint                    Check contracts and fixtures without serving (exit 0
                                      when usable, 2 otherwise).
              routes                  Print the route table: method, path template,
                                      contract, file.
              import                  Write contracts and fixtures from an OpenAPI document
                                      or a HAR capture.
              export                  Describe the contract set in another format.
              diff                    Compare two contract sets for the clients that use
                                      them; exit 1 when a change breaks them.
              verify-backend          Send each contract's request to a real backend and
                                      check the answer is what the mock promises.
              record                  Proxy to a real API and write contracts and fixtures
                                      from the traffic (on stop, or POST
                                      /__mockapi/record/save).
              probe                   Ask a running server whether it is ready (or alive):
                                      exit 0 on 200, 1 otherwise.

              See 'mockapi help <subcommand>' for detailed help.

            """)
    }

    @Test func lintExitsZeroOnTheBundledSetAndTwoOnABrokenOne() throws {
        let good = try CommandLineRunner.run(["lint"])
        #expect(good.status == 0)
        #expect(good.stdout == "contracts: 19 contracts, 36 responses, 19 fixtures: usable\n")

        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try FileManager.default.removeItem(at: set.fixtures.appendingPathComponent("backings/backing.json"))
        let broken = try CommandLineRunner.run(["lint", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains(#"backings/backing.json: $.responses.default.fixture: fixture "backings/backing.json" does not exist"#))
    }

    @Test func lintWarnsAboutFixturesNoContractReferencesWithoutFailing() throws {
        let good = try CommandLineRunner.run(["lint"])
        #expect(good.stderr == "")

        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try FileManager.default.createDirectory(at: set.fixtures.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: set.fixtures.appendingPathComponent("old/renamed_response.json"))
        try Data("x".utf8).write(to: set.fixtures.appendingPathComponent(".DS_Store"))
        let result = try CommandLineRunner.run(["lint", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 0)
        #expect(result.stderr == "warning: \(set.fixtures.path)/old/renamed_response.json: no contract references this fixture\n")
        #expect(result.stdout.hasSuffix("19 contracts, 36 responses, 19 fixtures: usable\n"))
    }

    @Test func routesPrintsTheTableWithTheLiteralBeforeTheParameter() throws {
        let result = try CommandLineRunner.run(["routes"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.first == "METHOD PATH CONTRACT FILE")
        #expect(lines.count == 20)
        #expect(lines.contains("GET /v1/users/self current_user contracts/users/current_user.json"))
        #expect(lines.contains("GET /v1/users/{id:int} user contracts/users/user.json"))
    }

    @Test func verifyPassesOnTheBundleAndWritesJUnit() throws {
        // A folder that does not exist yet, as in a fresh checkout's build/.
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)/build/verify.xml")
        defer { try? FileManager.default.removeItem(at: junit.deletingLastPathComponent().deletingLastPathComponent()) }
        let result = try CommandLineRunner.run(["verify", "--junit", junit.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("19 routes: 19 passed, 0 failed"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="mockapi verify" tests="19" failures="0""#))
    }

    @Test func verifyAgainstARunningServerWithJSONOutput() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let result = try CommandLineRunner.run(["verify", "--base-url", server.baseURL, "--format", "json"])
        #expect(result.status == 0)
        struct Report: Decodable {
            struct Summary: Decodable {
                var passed: Int
                var failed: Int
            }
            var summary: Summary
        }
        let summary = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8)).summary
        #expect(summary.passed == 19)
        #expect(summary.failed == 0)
    }

    @Test func verifyExitsTwoWhenInputsAreUnusable() throws {
        let unreachable = try CommandLineRunner.run(["verify", "--base-url", "http://127.0.0.1:1"])
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr == "mockapi verify: http://127.0.0.1:1 does not answer: connection refused\n")
        let set = try TemporaryContractSet(contracts: ["a.json": "[]"])
        let broken = try CommandLineRunner.run(["verify", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("a.json: $: expected an object, found array"))
    }

    @Test func verifyWithJSONFormatPrintsAnErrorDocumentOnUnusableInput() throws {
        let set = try TemporaryContractSet(contracts: ["a.json": "[]"])
        let cases: [([String], String)] = [
            (["--base-url", "http://127.0.0.1:1"], "http://127.0.0.1:1 does not answer: connection refused"),
            (["--base-url", "nope"], #"--base-url "nope" is not an http(s) URL"#),
            (["--contract", "no_such"], "--contract names no contract in contracts/: no_such"),
            (["--contracts", set.contracts.path, "--fixtures", set.fixtures.path], "a.json: $: expected an object, found array"),
        ]
        for (arguments, error) in cases {
            let result = try CommandLineRunner.run(["verify", "--format", "json"] + arguments)
            #expect(result.status == 2)
            let document = try? JSONDecoder().decode([String: String].self, from: Data(result.stdout.utf8))
            #expect(document?["error"]?.contains(error) == true, "\(arguments): \(result.stdout)")
        }
    }

    @Test func verifyOnAnotherAPIsContractsSaysFirstThatItRunsTheBundledClient() throws {
        let set = try TemporaryContractSet(contracts: ["pets.json": #"{"name": "pets", "request": {"method": "GET", "path": "/v1/pets"}, "responses": {"default": {"status": 200, "body": []}}}"#])
        let result = try CommandLineRunner.run(["verify", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 1)
        #expect(
            result.stderr == "mockapi verify: this command runs the bundled example client, whose routes claim none of these contracts: "
                + "check your own client with your gate (VerifyCommand.main(checks:)) or, for any client, with mockapi coverage\n")
        #expect(try CommandLineRunner.run(["verify"]).stderr == "", "the bundled contracts: no such line")
    }

    @Test func verifyColoursATerminalUnlessNO_COLOROrTERMIsDumb() throws {
        for (environment, coloured) in [([:], true), (["NO_COLOR": "1"], false), (["TERM": "dumb"], false)] as [([String: String], Bool)] {
            let terminal = try PseudoTerminal()
            let (process, _, _) = CommandLineRunner.process(["verify", "--contract", "categories"], environment: environment)
            process.standardOutput = terminal.terminal
            try process.run()
            process.waitUntilExit()
            let text = terminal.readAll()
            #expect(text.contains("\u{1B}[32mPASS\u{1B}[0m  categories") == coloured, "\(environment): \(text)")
            #expect(text.contains("\nPASS  categories") == !coloured, "\(environment): \(text)")
        }
    }

    @Test func verifyFailsWithExitOneWhenAFixtureBreaksTheModel() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let file = set.fixtures.appendingPathComponent("users/user.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: #""id": 1001"#, with: #""id": "1001""#).write(to: file, atomically: true, encoding: .utf8)
        let result = try CommandLineRunner.run(["verify", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL  user "))
        #expect(result.stdout.contains("users/user.json: id: expected Int, found String"), "\(result.stdout)")
    }
}
