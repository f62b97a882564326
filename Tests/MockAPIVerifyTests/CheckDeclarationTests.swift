import ClientKit
import ExampleAPIChecks
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Checks declared in ways the runner cannot fully use still give a clear result, never a crash.
@Suite struct CheckDeclarationTests {
    @Test func checkWithoutADefaultDecoderFailsThatRouteOnly() async throws {
        let report = try await verify(checks: checks(changing: "backing") { $0.responses.removeValue(forKey: "default") })

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == .contract)
        #expect(
            failure.message == """
                route backing declares no decoder for the "default" response of contract "backing" (it declares "not_found"): \
                every route must declare a "default" decoder, for the answer to its plain request (sent without Prefer); \
                add "default": .decoding(Model.self, with: yourDecoder). Nothing was sent for this route.
                """)
        #expect(report.failedRouteNames == ["backing"])
    }

    @Test func contractResponsesTheRouteDoesNotHandleWarnAndFailUnderStrictCoverage() async throws {
        let onlyDefault = checks(changing: "update_backing") { $0.responses = ["default": $0.responses["default"]!] }
        let expected =
            #"route update_backing declares no decoder for responses "invalid", "unauthorized" of contract "update_backing", "#
            + "so they are not checked: add them to the route's responses"

        let report = try await verify(checks: onlyDefault)
        #expect(report.failedRouteNames == [])
        #expect(report.route("update_backing")?.unhandledResponses == ["invalid", "unauthorized"])
        #expect(TextReport.render(report).contains("      warning [coverage] " + expected), "\(TextReport.render(report))")
        #expect(JSONReport.render(report).contains(#""unhandledResponses" : ["#) || JSONReport.render(report).contains(#""unhandledResponses": ["#))

        let strict = try await verify(checks: onlyDefault, strict: true)
        let failure = try onlyFailure(of: "update_backing", in: strict)
        #expect(failure.check == .coverage)
        #expect(failure.message == expected)
        #expect(!TextReport.render(strict).contains("warning [coverage]"))
    }

    /// A `Decodable`-only model whose decoder has a custom key strategy: neither its reads nor
    /// its re-encoding can be had, and the report says so once, not once per route.
    @Test func decodableOnlyModelsSayDriftWasNotCheckedOncePerRun() async throws {
        struct Thin: Decodable, Sendable { var id: Int }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { $0.last! }
        let report = try await verify(
            checks: checks(changing: "backing") { $0.responses["default"] = .decoding(Thin.self, with: decoder) }
                .map { check in
                    var check = check
                    if check.name == "update_backing" { check.responses["default"] = .decoding(Thin.self, with: decoder) }
                    return check
                })

        #expect(report.failedRouteNames == [])
        #expect(report.routes.flatMap(\.warnings) == [])
        #expect(report.notes == ["drift not checked: Thin is not Encodable"])
        #expect(TextReport.render(report).contains("\nnote  drift not checked: Thin is not Encodable\n"))
    }

    /// With a standard key strategy the same model's drift comes from the keys it reads.
    @Test func decodableOnlyModelsGetDriftFromTheKeysTheyRead() async throws {
        struct Thin: Decodable, Sendable { var id: Int }
        let report = try await verify(checks: checks(changing: "backing") { $0.responses["default"] = .clientKit(Thin.self) })

        #expect(report.failedRouteNames == [])
        #expect(report.notes == [])
        let warning = try #require(report.route("backing")?.warnings.first)
        #expect(warning.hasPrefix("fixtures/backings/backing.json: keys Thin never reads: "), "\(warning)")
        #expect(!warning.contains(" id,") && !warning.hasSuffix(" id"), "\(warning)")
    }

    @Test func getWithABodyIsReportedAsSuch() async throws {
        let report = try await verify(checks: checks(replacing: "categories") { $0.body = .json(["x": 1]) })

        let failure = try onlyFailure(of: "categories", in: report)
        #expect(failure.check == .transport)
        #expect(failure.message.contains("GET /v1/categories has a body, but a GET request cannot carry one"))
    }
}
