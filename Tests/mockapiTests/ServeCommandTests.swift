import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct ServeCommandTests {
    @Test func listeningLineNamesTheRealPortAndRouteCountThenSIGTERMExitsZero() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/127\.0\.0\.1:[1-9][0-9]* \(19 routes\)/) != nil, "\(server.firstLine)")
        let port = try #require(Int(server.baseURL.split(separator: ":").last ?? ""))
        #expect(try curlStatus("http://127.0.0.1:\(port)/v1/categories") == "200")
        let (status, stderr) = server.stop()
        #expect(status == 0)
        #expect(stderr == "mockapi: SIGTERM, stopped\n")
    }

    @Test func oneLogLinePerRequestOnStderr() throws {
        let server = try CommandLineRunner.Server([])
        #expect(try curlStatus(server.baseURL + "/v1/users/42") == "200")
        let (_, stderr) = server.stop()
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.wholeMatch(of: /[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} GET \/v1\/users\/42 200 user [0-9.]+ms/) != nil, "\(stderr)")
    }

    @Test func brokenContractSetExitsTwoWithTheWholeReportAndServesNothing() throws {
        let set = try TemporaryContractSet(contracts: ["a.json": "{", "b.json": #"{"name": "b"}"#])
        let result = try CommandLineRunner.run(["serve", "--port", "0", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("mockapi: the contract set is not usable (3 problems):"))
        #expect(result.stderr.contains("a.json:1:2: not valid JSON"))
        #expect(result.stderr.contains(#"b.json: $: missing key "request""#))
    }

    @Test func sigtermWhileLoadingExitsAtOnceWith143() throws {
        // A 20 MB fixture takes seconds to parse in a debug build, so the signal lands mid-load.
        let big = "[" + Array(repeating: #"{"a":[1,2,3,"xyz"]}"#, count: 1_000_000).joined(separator: ",") + "]"
        let set = try TemporaryContractSet(
            contracts: ["big.json": #"{"name": "big", "request": {"method": "GET", "path": "/big"}, "responses": {"default": {"status": 200, "fixture": "big.json"}}}"#],
            fixtures: ["big.json": big])
        let (process, stdout, stderr) = CommandLineRunner.process(["serve", "--port", "0", "--quiet", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        let signalled = Date()
        process.terminate()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Well under the load's own time; loose, since a CI machine running every suite at once
        // may leave the process little CPU (5.4 s measured with 32 suites on 2 cores).
        #expect(Date().timeIntervalSince(signalled) < 10)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 143)
        #expect(String(decoding: err, as: UTF8.self) == "mockapi: SIGTERM while loading the contracts, stopped\n")
        #expect(stdout.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test func portInUseIsAClearError() throws {
        let first = try CommandLineRunner.Server(["--quiet"])
        defer { _ = first.stop() }
        let port = String(first.baseURL.split(separator: ":").last ?? "")
        let result = try CommandLineRunner.run(["serve", "--port", port, "--quiet"])
        #expect(result.status == 2)
        #expect(result.stderr == "mockapi: cannot listen on 127.0.0.1:\(port): Address already in use\n")
    }
}

/// What curl (a client mockapi knows nothing about) prints on stdout for `arguments`.
@discardableResult
func curl(_ arguments: [String]) throws -> String {
    try ExternalTool.run(["curl", "-s"] + arguments).stdout
}

/// The status code curl gets for a request (`arguments` end with the URL).
@discardableResult
func curlStatus(_ arguments: String...) throws -> String {
    try curl(["-o", "/dev/null", "-w", "%{http_code}"] + arguments)
}

/// `serve --watch`: edits reach the running server within a second; a broken one does not.
@Suite struct WatchTests {
    private func body(_ url: String) throws -> String { try curl([url]) }

    @Test func editedFixtureIsServedAndABrokenEditKeepsThePreviousSet() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        let url = server.baseURL + "/v1/categories/34"
        #expect(try body(url).contains("Tabletop Games"))

        try set.write(
            #"{"id": 34, "name": "Board Games", "slug": "games/tabletop-games", "parent_id": 12, "projects_count": 118}"#,
            to: "fixtures/categories/category.json")
        #expect(try within(2) { try body(url).contains("Board Games") }, "picked up within 2 s")

        try set.write("{oops", to: "contracts/oops.json")
        usleep(600_000)
        #expect(try body(url).contains("Board Games"), "the previous set still serves")
        let (_, stderr) = server.stop()
        #expect(stderr.contains("mockapi: reloaded (19 routes)"))
        #expect(stderr.contains("oops.json:1:2: not valid JSON"))
        #expect(stderr.contains("mockapi: still serving the previous set"))
    }

    private func category(_ name: String) -> String { Self.category(name) }

    private static func category(_ name: String) -> String {
        #"{"id": 34, "name": "\#(name)", "slug": "games/tabletop-games", "parent_id": 12, "projects_count": 118}"#
    }

    @Test func fixturesFolderDeletedAndMadeAgainIsStillWatched() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        defer { _ = server.stop() }
        let url = server.baseURL + "/v1/categories/34"
        #expect(try body(url).contains("Tabletop Games"))

        // What a branch switch or a regenerate does: the folder goes, and a new one takes its place.
        try FileManager.default.removeItem(at: set.fixtures)
        usleep(300_000)
        try FileManager.default.copyItem(at: BundledAPI.fixtures, to: set.fixtures)
        usleep(300_000)
        try set.write(category("Board Games"), to: "fixtures/categories/category.json")
        #expect(try within(5) { try body(url).contains("Board Games") }, "an edit in the new folder is served within 5 s")

        try set.write(category("Card Games"), to: "fixtures/categories/category.json")
        #expect(try within(5) { try body(url).contains("Card Games") }, "and so is the next one")
    }

    /// A `fixtures` that is a symlink to a folder elsewhere (a shared checkout): its subfolders
    /// were never watched, as the walk did not go through the link.
    @Test func editsInASymlinkedFixturesFolderAreSeen() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let real = set.fixtures.deletingLastPathComponent().appendingPathComponent("fixtures-real")
        try FileManager.default.moveItem(at: set.fixtures, to: real)
        try FileManager.default.createSymbolicLink(at: set.fixtures, withDestinationURL: real)
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        defer { _ = server.stop() }
        let url = server.baseURL + "/v1/categories/34"
        #expect(try body(url).contains("Tabletop Games"))
        try category("Board Games").write(to: real.appendingPathComponent("categories/category.json"), atomically: true, encoding: .utf8)
        #expect(try within(3) { try body(url).contains("Board Games") }, "an edit under the link's target is served within 3 s")
    }

    @Test func fileRewrittenWithoutPauseStillReloads() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])
        defer { _ = server.stop() }
        let url = server.baseURL + "/v1/categories/34"
        #expect(try body(url).contains("Tabletop Games"))

        // A writer that never pauses for the 150 ms quiet period: every 100 ms for 3 s, on its
        // own thread so reading the body does not slow it down.
        let writing = DispatchSemaphore(value: 0)
        let writer = Thread {
            for edit in 1...30 {
                try? set.write(Self.category("Board Games \(edit)"), to: "fixtures/categories/category.json")
                usleep(100_000)
            }
            writing.signal()
        }
        writer.start()
        var reloadedWhileWriting = false
        while writing.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if !reloadedWhileWriting, try body(url).contains("Board Games") { reloadedWhileWriting = true }
        }
        #expect(reloadedWhileWriting, "a reload came at most about a second after the first edit, not after the last")
    }
}
