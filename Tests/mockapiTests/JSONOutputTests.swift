import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// `lint --format json` and `routes --format json`: one document on stdout that a script reads
/// without scraping text.
@Suite struct JSONOutputTests {
    @Test func routesAsJSONAreWhatTheAdminEndpointLists() throws {
        let result = try CommandLineRunner.run(["routes", "--format", "json"])
        #expect(result.status == 0)
        let routes = try JSONDecoder().decode([RouteListing].self, from: Data(result.stdout.utf8))
        #expect(routes.count == 19)
        #expect(
            routes.first
                == RouteListing(contract: "activities", method: "GET", path: "/v1/activities", file: "contracts/activities/activities.json", responses: ["default", "page2"]))

        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let listed = try curl([server.baseURL + "/__mockapi/routes"])
        let served = try JSONDecoder().decode([RouteListing].self, from: Data(listed.utf8))
        func described(_ list: [RouteListing]) -> Set<String> { Set(list.map { "\($0)" }) }
        #expect(described(routes) == described(served))
        // Typed decoding leaves unknown members out: the two documents name the same members too.
        func members(_ json: String) throws -> Set<[String]> { Set(try JSONParser.parse(json).arrayValue?.compactMap { $0.objectValue?.keys.sorted() } ?? []) }
        #expect(try members(result.stdout) == members(listed))
    }

    @Test func lintAsJSONCarriesTheSummaryAndEachWarning() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try set.write("{}", to: "fixtures/left_over.json")

        let result = try CommandLineRunner.run(["lint", "--format", "json", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        #expect(result.status == 0)
        #expect(result.stderr == "warning: \(set.fixtures.path)/left_over.json: no contract references this fixture\n")
        let lint = try LintDocument(result.stdout)
        #expect(lint.usable == true)
        #expect(lint.exitCode == 0)
        #expect(lint.summary == LintDocument.Summary(contracts: 19, responses: 36, fixtures: 19))
        #expect(lint.problems.isEmpty)
        #expect(lint.warnings == [LintDocument.Warning(kind: "unreferenced-fixture", file: "\(set.fixtures.path)/left_over.json", message: "no contract references this fixture")])
    }

    @Test func lintAsJSONListsEveryProblemOfAnUnusableSet() throws {
        let set = try TemporaryContractSet(contracts: [
            "broken.json": "{\"name\": ",
            "typo.json": #"{"name": "typo", "request": {"method": "GET", "path": "/t"}, "responses": {"default": {"status": 200, "fixure": "x.json"}}}"#,
        ])

        let result = try CommandLineRunner.run(["lint", "--format", "json", "--contracts", set.contracts.path, "--fixtures", set.fixtures.path])

        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi: the contract set is not usable (2 problems):\n"), "\(result.stderr)")
        let lint = try LintDocument(result.stdout)
        #expect(lint.usable == false)
        #expect(lint.exitCode == 2)
        #expect(lint.summary == nil)
        #expect(lint.problems.count == 2)
        let syntax = try #require(lint.problems.first { $0.file.hasSuffix("broken.json") })
        #expect(syntax.line == 1)
        #expect(syntax.column != nil)
        let key = try #require(lint.problems.first { $0.file.hasSuffix("typo.json") })
        #expect(key.jsonPath == "$.responses.default")
        #expect(key.message.hasPrefix(#"unknown key "fixure""#), "\(key)")
    }
}
