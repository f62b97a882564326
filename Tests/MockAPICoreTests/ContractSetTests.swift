import Foundation
import Synchronization
import Testing

@testable import MockAPICore

/// One test per kind of load error; each asserts the report names the file and the place.
struct ContractSetTests {
    static let okFixture = ["ok.json": #"{"ok": true}"#]

    static func contract(
        _ name: String = "ping", method: String = "GET", path: String = "/ping",
        responses: String = #"{"default": {"status": 200, "fixture": "ok.json"}}"#, extra: String = ""
    ) -> String {
        #"{"name": "\#(name)", "request": {"method": "\#(method)", "path": "\#(path)"}, "responses": \#(responses)\#(extra)}"#
    }

    private func problems(contracts: [String: String], fixtures: [String: String] = okFixture) throws -> [String] {
        let folder = try TestFolder(contracts: contracts, fixtures: fixtures)
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
        }
    }

    @Test func aWhensContentTypeIsAMediaTypeAsAContentTypeNamesIt() throws {
        let responses = #"{"default": {"status": 200}, "form": {"status": 400, "when": {"contentType": "Application/X-WWW-Form-Urlencoded; charset=utf-8"}}}"#
        #expect(
            try problems(contracts: ["ping.json": Self.contract(method: "POST", responses: responses)]) == [
                #"contracts/ping.json: $.responses.form.when.contentType: "Application/X-WWW-Form-Urlencoded; charset=utf-8" is not a media type as a Content-Type names it: lowercase type/subtype, no parameters or wildcards"#
            ])
        let good = #"{"default": {"status": 200}, "form": {"status": 400, "when": {"contentType": "application/x-www-form-urlencoded"}}}"#
        #expect(try problems(contracts: ["ping.json": Self.contract(method: "POST", responses: good)]) == [])
    }

    @Test func validSetLoadsWithItsRoutesAndFixtureBytes() throws {
        let folder = try TestFolder(contracts: ["ping.json": Self.contract()], fixtures: Self.okFixture)
        let set = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
        #expect(set.contracts.map(\.name) == ["ping"])
        #expect(set.contracts[0].responses[0].body == Array(#"{"ok": true}"#.utf8))
        #expect(set.contracts[0].responses[0].contentType == "application/json")
        #expect(set.routes.match(method: .GET, path: "/ping") == .found(contract: 0))
    }

    @Test func badJSONNamesFileLineAndColumn() throws {
        let report = try problems(contracts: ["broken.json": "{\n  \"name\": \"x\",\n  oops\n}"])
        #expect(report == ["contracts/broken.json:3:3: not valid JSON: unexpected 'o', expected a string key"])
    }

    @Test func unknownKeyNamesItsJSONPath() throws {
        let report = try problems(contracts: ["ping.json": Self.contract(extra: #", "respones": {}"#)])
        #expect(report == [#"contracts/ping.json: $: unknown key "respones" (did you mean "responses"? allowed: $schema, name, description, request, responses, sequence, refusal, resource)"#])
    }

    @Test func aMistypedValueGetsTheNearestKnownOne() throws {
        let text = #"{"name": "q", "request": {"method": "GTE", "path": "/q", "query": {"page": {"type": "integr"}}}, "responses": {"default": {"status": 200}}}"#
        let report = try problems(contracts: ["q.json": text])
        #expect(report.contains(#"contracts/q.json: $.request.method: unknown method "GTE" (did you mean "GET"? known: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)"#), "\(report)")
        #expect(report.contains(#"contracts/q.json: $.request.query.page.type: unknown type "integr" (known: string, int, number, bool)"#), "\(report)")
    }

    @Test func anExpressStyleParameterIsCalledOne() throws {
        let report = try problems(contracts: ["ping.json": Self.contract(path: "/v1/users/:id/posts")])
        #expect(report == [#"contracts/ping.json: $.request.path: ":id" is Express-style: write the parameter as {id} (or {id:int})"#])
    }

    @Test func aYAMLFileInTheContractsFolderIsNotIgnoredSilently() throws {
        let report = try problems(contracts: ["ping.json": Self.contract(), "users/user.yaml": "name: user\n"])
        #expect(report == ["contracts/users/user.yaml: contract files are JSON, so this one would be ignored: write it as JSON (an OpenAPI document: mockapi import openapi)"])
    }

    @Test func aMissingFixturesFolderIsOneProblemNotOnePerResponse() throws {
        let folder = try TestFolder(contracts: ["a.json": Self.contract("a", path: "/a"), "b.json": Self.contract("b", path: "/b")], fixtures: [:])
        let report = try #require(try loadProblems(folder, fixtures: folder.root.appendingPathComponent("fixturez")))
        #expect(report == ["fixturez: fixtures folder not found"])
    }

    @Test func wrongTypeNamesItsJSONPath() throws {
        let text = #"{"name": "q", "request": {"method": "GET", "path": "/q", "query": {"page": {"type": "integer", "required": "yes"}}}, "responses": {"default": {"status": 200}}}"#
        let report = try problems(contracts: ["q.json": text])
        #expect(
            report == [
                #"contracts/q.json: $.request.query.page.type: unknown type "integer" (known: string, int, number, bool)"#,
                "contracts/q.json: $.request.query.page.required: expected true or false, found string",
            ])
    }

    @Test func missingFixtureNamesTheReference() throws {
        let report = try problems(contracts: ["ping.json": Self.contract(responses: #"{"default": {"status": 200, "fixture": "nope.json"}}"#)])
        #expect(report == [#"contracts/ping.json: $.responses.default.fixture: fixture "nope.json" does not exist"#])
    }

    @Test func fixtureOutsideTheFixturesFolderIsRefused() throws {
        let report = try problems(contracts: ["ping.json": Self.contract(responses: #"{"default": {"status": 200, "fixture": "../contracts/ping.json"}}"#)])
        #expect(report == [#"contracts/ping.json: $.responses.default.fixture: fixture "../contracts/ping.json" leaves the fixtures folder; references must stay inside it"#])
    }

    /// A number no double holds, in a contract or a fixture: refused naming the file, line and JSON path.
    @Test func aNumberBeyondDoublesRangeIsRefusedNamingFileAndPath() throws {
        let contract = try problems(contracts: ["ping.json": Self.contract(responses: #"{"default": {"status": 200, "delayMs": 1e400}}"#)])
        #expect(contract.count == 1)
        #expect(contract.first?.hasPrefix("contracts/ping.json:1:") == true, "\(contract)")
        #expect(contract.first?.hasSuffix("not valid JSON: number 1e400 is beyond a 64-bit float's range (at $.responses.default.delayMs)") == true, "\(contract)")
        let fixture = try problems(contracts: ["ping.json": Self.contract()], fixtures: ["ok.json": "{\"total\": 1e400}"])
        #expect(fixture == ["fixtures/ok.json:1:11: not valid JSON: number 1e400 is beyond a 64-bit float's range (at $.total)"])
    }

    @Test func invalidJSONFixtureNamesTheFixtureLine() throws {
        let report = try problems(contracts: ["ping.json": Self.contract()], fixtures: ["ok.json": "{\n\"a\": tru\n}"])
        #expect(report == ["fixtures/ok.json:2:6: not valid JSON: unexpected 't', expected a value"])
    }

    @Test func ambiguousRoutesNameBothFiles() throws {
        let report = try problems(contracts: [
            "a.json": Self.contract("a", path: "/users/{id}"),
            "b.json": Self.contract("b", path: "/users/{name}"),
        ])
        #expect(report == [#"contracts/b.json: $.request.path: GET /users/{name} can match the same requests as /users/{id} in contracts/a.json (contract "a")"#])
    }

    @Test func duplicateNamesNameBothFiles() throws {
        let report = try problems(contracts: ["a.json": Self.contract("same", path: "/a"), "b.json": Self.contract("same", path: "/b")])
        #expect(report == [#"contracts/b.json: $.name: contract name "same" is already used by contracts/a.json"#])
    }

    @Test func missingDefaultResponseAndUnknownSequenceStep() throws {
        let report = try problems(contracts: ["s.json": Self.contract(responses: #"{"ok": {"status": 200}}"#, extra: #", "sequence": ["ok", "later"]"#)])
        #expect(
            report == [
                #"contracts/s.json: $.responses: missing the "default" response"#,
                #"contracts/s.json: $.sequence[1]: no response named "later" (have: ok)"#,
            ])
    }

    @Test func everyProblemInTheSetIsReportedTogether() throws {
        let report = try problems(contracts: [
            "a.json": "{",
            "b.json": Self.contract("b", method: "FETCH"),
            "c.json": Self.contract("c", path: "no-slash"),
        ])
        #expect(report.count == 3)
        #expect(report[0].hasPrefix("contracts/a.json:1:2: not valid JSON"))
        #expect(report[1].hasPrefix(#"contracts/b.json: $.request.method: unknown method "FETCH""#))
        #expect(report[2] == #"contracts/c.json: $.request.path: a path must start with '/', found "no-slash""#)
    }

    @Test func emptyOrMissingFoldersAreProblems() throws {
        let report = try problems(contracts: [:])
        #expect(report == ["contracts: no contract files (*.json) found"])
    }

    @Test func symlinkLoopsAreProblemsNotEndlessWalks() throws {
        let folder = try TestFolder(contracts: ["ping.json": Self.contract()], fixtures: Self.okFixture)
        for name in ["x", "y"] { try FileManager.default.createSymbolicLink(atPath: folder.contracts.path + "/" + name, withDestinationPath: ".") }
        let report = try #require(try loadProblems(folder))
        #expect(
            report == [
                "contracts/x: symlink loop: this folder is already being read through another path",
                "contracts/y: symlink loop: this folder is already being read through another path",
            ])
    }

    @Test func aFIFONamedLikeAContractOrFixtureIsRefusedNotRead() throws {
        let folder = try TestFolder(
            contracts: ["ping.json": Self.contract(responses: #"{"default": {"status": 200, "fixture": "pipe.json"}}"#)],
            fixtures: [:])
        #expect(mkfifo(folder.contracts.path + "/pipe.json", 0o600) == 0)
        #expect(mkfifo(folder.fixtures.path + "/pipe.json", 0o600) == 0)
        let report = try #require(try loadProblems(folder))
        #expect(
            report == [
                "contracts/pipe.json: a FIFO, not a regular file",
                #"contracts/ping.json: $.responses.default.fixture: fixture "pipe.json" cannot be read: a FIFO, not a regular file"#,
            ])
    }

    /// A fixture is found through links as `realpath` finds it: a link to a file or a folder
    /// inside the fixtures folder is followed, one that leads out is refused, wherever it sits.
    @Test func fixtureLinksAreFollowedOnlyWhileTheyStayInside() throws {
        let named = [
            ("default", "linked.json"), ("out", "outside.json"), ("away", "away/ping.json"), ("folder", "folder.json"),
            ("climb", "real/../real/ok.json"), ("slash", "real/"), ("through", "inner/ok.json"), ("missing", "away/none.json"),
        ]
        let responses = "{" + named.map { #""\#($0.0)": {"status": 200, "fixture": "\#($0.1)"}"# }.joined(separator: ", ") + "}"
        let folder = try TestFolder(contracts: ["ping.json": Self.contract(responses: responses)], fixtures: ["real/ok.json": "{}", "folder.json/x.json": "{}"])
        let fixtures = folder.fixtures.path
        for (link, target) in [("linked.json", "real/ok.json"), ("outside.json", "../contracts/ping.json"), ("away", "../contracts"), ("inner", "real")] {
            try FileManager.default.createSymbolicLink(atPath: fixtures + "/" + link, withDestinationPath: target)
        }
        let report = try #require(try loadProblems(folder))
        let leaves = "leaves the fixtures folder; references must stay inside it"
        #expect(
            report == [
                #"contracts/ping.json: $.responses.out.fixture: fixture "outside.json" \#(leaves)"#,
                #"contracts/ping.json: $.responses.away.fixture: fixture "away/ping.json" \#(leaves)"#,
                #"contracts/ping.json: $.responses.folder.fixture: fixture "folder.json" does not exist"#,
                #"contracts/ping.json: $.responses.slash.fixture: fixture "real/" does not exist"#,
                #"contracts/ping.json: $.responses.missing.fixture: fixture "away/none.json" does not exist"#,
            ])
    }

    /// The problems a load reports, or nil if it does not finish within 20 s (it hung).
    private func loadProblems(_ folder: TestFolder, fixtures otherFixtures: URL? = nil) throws -> [String]? {
        let outcome = Mutex<[String]?>(nil)
        let done = DispatchSemaphore(value: 0)
        let (contracts, fixtures, root) = (folder.contracts, otherFixtures ?? folder.fixtures, folder.root.path + "/")
        Thread.detachNewThread {
            do throws(ContractSetError) {
                _ = try ContractSet.load(contracts: contracts, fixtures: fixtures)
                outcome.withLock { $0 = [] }
            } catch {
                outcome.withLock { $0 = error.problems.map { $0.description.replacingOccurrences(of: root, with: "") } }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}

/// A temporary contracts/ + fixtures/ pair, removed when released.
final class TestFolder {
    let root: URL
    var contracts: URL { root.appendingPathComponent("contracts") }
    var fixtures: URL { root.appendingPathComponent("fixtures") }

    init(contracts: [String: String], fixtures: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-core-\(UUID().uuidString)")
        for (base, files) in [("contracts", contracts), ("fixtures", fixtures)] {
            let folder = root.appendingPathComponent(base)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (path, text) in files {
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
