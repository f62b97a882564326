import Foundation
import Testing

@testable import MockAPICore

/// `contracts/_defaults.json`: query keys and headers every contract of the set takes.
struct SetDefaultsTests {
    static let defaults = #"""
        {"$schema": "../contract.schema.json",
         "query": {"client_id": {"required": false}, "currency": {"enum": ["USD", "EUR"], "required": false}},
         "headers": {"Accept-Language": {}, "User-Agent": {"required": false}}}
        """#

    private func load(_ contracts: [String: String]) throws -> ContractSet {
        let folder = try TestFolder(contracts: contracts, fixtures: ContractSetTests.okFixture)
        return try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
    }

    private func violations(_ request: IncomingRequest, _ contract: Contract) -> [String] {
        RequestValidator.violations(of: request, against: contract.request).map(\.description)
    }

    @Test func everyContractTakesTheDefaultsAndMayOverrideThem() throws {
        let set = try load([
            "_defaults.json": Self.defaults,
            "ping.json": ContractSetTests.contract(),
            "login.json": #"""
            {"name": "login", "request": {"method": "GET", "path": "/login",
              "headers": {"accept-language": {"required": false}}, "query": {"currency": {"enum": ["GBP"]}}},
             "responses": {"default": {"status": 200, "fixture": "ok.json"}}}
            """#,
        ])
        #expect(set.contracts.map(\.name).sorted() == ["login", "ping"], "the defaults file is not a contract")
        let ping = try #require(set.contracts.first { $0.name == "ping" })
        #expect(violations(IncomingRequest(query: [QueryArgument("client_id", "ios"), QueryArgument("currency", "USD")], headers: [("Accept-Language", "en")]), ping) == [])
        #expect(
            violations(IncomingRequest(query: [QueryArgument("currency", "JPY")]), ping) == [
                #"query.currency: "JPY" is not one of USD, EUR"#,
                "header.Accept-Language: required header is missing",
            ])
        let login = try #require(set.contracts.first { $0.name == "login" })
        #expect(
            violations(IncomingRequest(query: [QueryArgument("currency", "GBP"), QueryArgument("client_id", "ios")]), login) == [],
            "its own currency and optional Accept-Language replace the defaults; client_id still comes from them")
    }

    @Test func problemsInTheDefaultsNameTheFileAndPath() throws {
        let folder = try TestFolder(
            contracts: [
                "_defaults.json": #"{"query": {"page": {"type": "integer"}}, "header": {}}"#,
                "ping.json": ContractSetTests.contract(),
            ], fixtures: ContractSetTests.okFixture)
        do {
            _ = try ContractSet.load(contracts: folder.contracts, fixtures: folder.fixtures)
            Issue.record("a broken defaults file must not load")
        } catch {
            let report = error.problems.map { $0.description.replacingOccurrences(of: folder.root.path + "/", with: "") }
            #expect(
                report == [
                    #"contracts/_defaults.json: $: unknown key "header" (did you mean "headers"? allowed: $schema, description, query, headers)"#,
                    #"contracts/_defaults.json: $.query.page.type: unknown type "integer" (known: string, int, number, bool)"#,
                ])
        }
    }
}
