import Foundation
import MockAPICore
import MockAPITestSupport
import MockAPIVerify
import Testing

/// `verify --variants` on a client written outside mockapi (`ShopClient`): each planted decoder
/// bug is caught by the rare answer that breaks it, with its JSON path and value, and the correct
/// client raises no alarm.
@Suite struct VariantsTests {
    private func verify(bug: ShopClient.Bug?, copies: Int = 1, strict: Bool = false) async throws -> VerifyReport {
        let files = try ShopContracts.set(copies: copies)
        let set = try ContractSet.load(contracts: files.contracts, fixtures: files.fixtures)
        #expect(ShapeMismatch.find(in: set).isEmpty, "the shop's fixtures fit their schemas")
        let options = VerifyOptions(variants: !strict, strictVariants: strict)
        return try await ContractRunner(set: set, checks: ShopClient.checks(bug: bug, copies: copies), options: options).run()
    }

    private static func refused(_ report: VerifyReport) -> [String] {
        report.routes.flatMap { route in route.variantFailures.map { "\(route.name): \($0.label) \($0.path) \($0.value)" } }
    }

    @Test func theCorrectClientDecodesEveryVariant() async throws {
        let report = try await verify(bug: nil)
        #expect(report.failedRouteNames == [])
        #expect(Self.refused(report) == [])
        #expect(report.routes.allSatisfy { $0.variantsChecked > 0 })
        #expect(report.routes.reduce(0) { $0 + $1.variantsChecked } == 41)
        #expect(report.exitCode == 0)
    }

    @Test(arguments: ShopClient.Bug.allCases) func eachPlantedBugIsCaught(bug: ShopClient.Bug) async throws {
        let report = try await verify(bug: bug)
        let expected: [String] =
            switch bug {
            case .requiredOptionalKey: ["user: optional key absent $.avatar_url absent", "user: nullable key null $.avatar_url null"]
            case .closedEnum: [#"order: enum value $.state "cancelled""#]
            case .int32Id: ["order: 19-digit integer $.id 1234567890123456789"]
            case .dateStrategy:
                // Every date-time the API sends with a fraction: user, order, the page's order, shipment.
                [
                    #"user: date-time with fractional seconds $.created_at "2023-11-02T08:30:00.123Z""#,
                    #"order: date-time with fractional seconds $.placed_at "2024-05-01T12:00:00.123Z""#,
                    #"orders: date-time with fractional seconds $.orders[0].placed_at "2024-05-01T12:00:00.123Z""#,
                    #"shipment: date-time with fractional seconds $.events[0].at "2024-05-02T09:15:00.123+02:00""#,
                ]
            case .firstOfEmptyArray: ["product: empty array $.images []"]
            }
        #expect(Self.refused(report) == expected)
        // Reported, but without --strict-variants the run passes.
        #expect(report.exitCode == 0)
        #expect(report.failedRouteNames == [])
    }

    @Test func theDecodersErrorAndTheReportsCarryEachRefusal() async throws {
        let report = try await verify(bug: .closedEnum)
        let failure = try #require(report.route("order")?.variantFailures.first)
        #expect(failure.response == "default")
        #expect(failure.error.hasPrefix("OrderWithThreeStates: state: "), "\(failure.error)")
        #expect(failure.description.hasPrefix(#"response "default": enum value at $.state ("cancelled"): OrderWithThreeStates: state: "#))
        let text = TextReport.render(report)
        #expect(text.contains(#"warning [variants] response "default": enum value at $.state ("cancelled")"#), "\(text)")
        #expect(text.contains("variants, 1 refused"), "\(text)")
        let json = try JSONParser.parse(JSONReport.render(report))
        let order = json.objectValue?["routes"]?.arrayValue?.first { $0.objectValue?["name"] == "order" }
        #expect(order?.objectValue?["variants"]?.objectValue?["failures"]?.arrayValue?.first?.objectValue?["path"] == "$.state")
        #expect(json.objectValue?["summary"]?.objectValue?["variants"] == true)
        #expect(JUnitReport.render(report).contains("variants: response &quot;default&quot;: enum value at $.state"))
    }

    @Test func strictVariantsFailsTheRoute() async throws {
        let report = try await verify(bug: .int32Id, strict: true)
        #expect(report.failedRouteNames == ["order"])
        let failure = try #require(report.route("order")?.failures.first)
        #expect(failure.check == .variants)
        #expect(failure.message.contains("19-digit integer at $.id (1234567890123456789)"))
        #expect(report.exitCode == 1)
        #expect(JUnitReport.render(report).contains(#"<failure type="variants""#))
    }

    @Test func variantsAreOffByDefault() async throws {
        let files = try ShopContracts.set()
        let set = try ContractSet.load(contracts: files.contracts, fixtures: files.fixtures)
        let report = try await ContractRunner(set: set, checks: ShopClient.checks(bug: .closedEnum)).run()
        #expect(report.routes.allSatisfy { $0.variantsChecked == 0 && $0.variantFailures.isEmpty })
        #expect(!TextReport.render(report).contains("variants"))
    }

    /// 100 routes (20 copies of the five), all variants: the whole run, requests included, and
    /// the same run without variants, so the variants' own cost shows.
    @Test func aHundredRoutesTakeSeconds() async throws {
        let plain = try await {
            let files = try ShopContracts.set(copies: 20)
            let set = try ContractSet.load(contracts: files.contracts, fixtures: files.fixtures)
            return try await ContractRunner(set: set, checks: ShopClient.checks(bug: nil, copies: 20)).run()
        }()
        let report = try await verify(bug: nil, copies: 20)
        let variants = report.routes.reduce(0) { $0 + $1.variantsChecked }
        print(
            "variants timing: 100 routes, \(variants) variants decoded in a run of \(String(format: "%.2f", report.seconds)) s "
                + "(\(String(format: "%.2f", plain.seconds)) s without variants)")
        #expect(report.routes.count == 100)
        #expect(variants == 20 * 41)
        #expect(Self.refused(report) == [])
        #expect(report.seconds < 30)
    }
}
