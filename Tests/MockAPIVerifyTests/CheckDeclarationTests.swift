import ExampleAPIChecks
import MockAPITestSupport
import Testing

/// Checks declared in ways the runner cannot fully use still give a clear result, never a crash.
@Suite struct CheckDeclarationTests {
    @Test func checkWithoutADefaultDecoderFailsThatRouteOnly() async throws {
        let report = try await verify(checks: checks(replacing: "backing") { $0.responses.removeValue(forKey: "default") })

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == "contract")
        #expect(failure.message == #"route backing declares no decoder for the "default" response of contract "backing""#)
        #expect(report.failedRouteNames == ["backing"])
    }

    @Test func decodableOnlyModelSaysDriftWasNotChecked() async throws {
        struct Thin: Decodable, Sendable { var id: Int }
        let report = try await verify(checks: checks(replacing: "backing") { $0.responses["default"] = .model(Thin.self) })

        let warnings = try #require(report.route("backing")).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasSuffix("fixtures/backings/backing.json: drift not checked: Thin is not Encodable, so the keys it reads cannot be compared") == true)
    }

    @Test func getWithABodyIsReportedAsSuch() async throws {
        let report = try await verify(checks: checks(replacing: "categories") { $0.endpoint.body = .json(["x": 1]) })

        let failure = try onlyFailure(of: "categories", in: report)
        #expect(failure.check == "transport")
        #expect(failure.message.contains("GET /v1/categories has a body, but a GET request cannot carry one"))
    }
}
