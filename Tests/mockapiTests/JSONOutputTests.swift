import Foundation
import MockAPITestSupport
import Testing

/// `lint --format json` and `routes --format json`: one document on stdout that a script reads
/// without scraping text.
@Suite struct JSONOutputTests {
    private func document(_ stdout: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }

    @Test func routesAsJSONAreWhatTheAdminEndpointLists() throws {
        let result = try CommandLineRunner.run(["routes", "--format", "json"])
        #expect(result.status == 0)
        let routes = try #require(try document(result.stdout) as? [[String: Any]])
        #expect(routes.count == 19)
        #expect(routes.first?["method"] as? String == "GET")
        #expect(routes.first?["path"] as? String == "/v1/activities")
        #expect(routes.first?["contract"] as? String == "activities")
        #expect(routes.first?["file"] as? String == "contracts/activities/activities.json")
        #expect(routes.first?["responses"] as? [String] == ["default", "page2"])

        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let served = try #require(try document(try curl([server.baseURL + "/__mockapi/routes"])) as? [[String: Any]])
        func described(_ list: [[String: Any]]) -> Set<String> {
            Set(list.map { route in route.keys.sorted().map { "\($0)=\(route[$0]!)" }.joined(separator: " ") })
        }
        #expect(described(routes) == described(served))
    }

    @Test func lintAsJSONCarriesTheSummaryAndEachWarning() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try set.write("{}", to: "fixtures/left_over.json")

        let result = try CommandLineRunner.run(["lint", "--format", "json", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        #expect(result.status == 0)
        #expect(result.stderr == "warning: \(set.fixtures.path)/left_over.json: no contract references this fixture\n")
        let lint = try #require(try document(result.stdout) as? [String: Any])
        #expect(lint["usable"] as? Bool == true)
        #expect(lint["exitCode"] as? Int == 0)
        #expect(lint["summary"] as? [String: Int] == ["contracts": 19, "responses": 36, "fixtures": 19])
        #expect((lint["problems"] as? [Any])?.isEmpty == true)
        let warnings = try #require(lint["warnings"] as? [[String: String]])
        #expect(warnings == [["kind": "unreferenced-fixture", "file": "\(set.fixtures.path)/left_over.json", "message": "no contract references this fixture"]])
    }

    @Test func lintAsJSONListsEveryProblemOfAnUnusableSet() throws {
        let set = try TemporaryContractSet(contracts: [
            "broken.json": "{\"name\": ",
            "typo.json": #"{"name": "typo", "request": {"method": "GET", "path": "/t"}, "responses": {"default": {"status": 200, "fixure": "x.json"}}}"#,
        ])

        let result = try CommandLineRunner.run(["lint", "--format", "json", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi: the contract set is not usable (2 problems):\n"), "\(result.stderr)")
        let lint = try #require(try document(result.stdout) as? [String: Any])
        #expect(lint["usable"] as? Bool == false)
        #expect(lint["exitCode"] as? Int == 2)
        #expect(lint["summary"] is NSNull)
        let problems = try #require(lint["problems"] as? [[String: Any]])
        #expect(problems.count == 2)
        let syntax = try #require(problems.first { ($0["file"] as? String)?.hasSuffix("broken.json") == true })
        #expect(syntax["line"] as? Int == 1)
        #expect(syntax["column"] != nil)
        let key = try #require(problems.first { ($0["file"] as? String)?.hasSuffix("typo.json") == true })
        #expect(key["jsonPath"] as? String == "$.responses.default")
        #expect((key["message"] as? String)?.hasPrefix(#"unknown key "fixure""#) == true, "\(key)")
    }
}
