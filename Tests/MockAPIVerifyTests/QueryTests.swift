import ClientKit
import ExampleAPIChecks
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Query keys the contract requires and the client leaves out, or the client sends and the
/// contract does not name, are listed as violations of the route's contract.
@Suite struct QueryTests {
    @Test func missingRequiredQueryKeyIsListed() async throws {
        let set = try bundledCopy()
        try set.replace(
            #""path": "/v1/categories"}"#, with: #""path": "/v1/categories", "query": {"per_page": {"type": "int"}}}"#,
            in: "contracts/categories/categories.json")

        let report = try await verify(set)

        let failure = try onlyFailure(of: "categories", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("contract: categories, GET /v1/categories (\(set.contracts.path)/categories/categories.json)"))
        #expect(
            failure.lines.suffix(2) == [
                "problem:  the request breaks the contract (1 violation):",
                "  query.per_page: required query key is missing",
            ])
    }

    @Test func queryKeyTheContractDoesNotNameIsListed() async throws {
        let report = try await verify(checks: checks(replacing: "categories") { $0.query.append(QueryItem("per_page", 50)) })

        let failure = try onlyFailure(of: "categories", in: report)
        #expect(failure.check == .contract)
        #expect(failure.lines.first?.hasSuffix("/v1/categories?per_page=50") == true)
        #expect(
            failure.lines.suffix(2) == [
                "problem:  the request breaks the contract (1 violation):",
                "  query.per_page: unexpected query key (the contract names: client_id)",
            ])
    }
}
