import Foundation
import MockAPICore
import MockAPITestSupport
import MockAPIVerify
import ShopApp
import Testing

/// `verify --variants` on a client written outside mockapi (`ShopClient`): each planted decoder
/// bug is caught by the rare answer that breaks it, with its JSON path and value, and the correct
/// client raises no alarm. The variants are decoded as a gate decodes them: in a child process,
/// the shop's gate executable (`shop-gate`), so a decoder that traps is a finding, not the end.
@Suite struct VariantsTests {
    /// `shop-gate`, built beside the tests.
    static let shopGate: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("shop-gate")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : BundledAPI.root.appendingPathComponent(".build/debug/shop-gate")
    }()

    private func verify(bug: ShopClient.Bug?, copies: Int = 1, strict: Bool = false, isolated: Bool = true) async throws -> VerifyReport {
        let files = try ShopContracts.set(copies: copies)
        let set = try ContractSet.load(contracts: files.contracts, fixtures: files.fixtures)
        #expect(ShapeMismatch.find(in: set).isEmpty, "the shop's fixtures fit their schemas")
        var options = VerifyOptions(variants: !strict, strictVariants: strict)
        if isolated {
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKAPI_") }
            environment["SHOP_BUG"] = bug?.rawValue ?? ""
            environment["SHOP_COPIES"] = "\(copies)"
            let arguments = ["--contracts", files.contracts.path, "--fixtures", files.fixtures.path]
            options.decodingChild = DecodingChild(.init(executable: Self.shopGate, arguments: arguments, environment: environment))
        }
        return try await ContractRunner(set: set, checks: ShopClient.checks(bug: bug, copies: copies), options: options).run()
    }

    private static func refused(_ report: VerifyReport) -> [String] {
        report.routes.flatMap { route in
            route.variantFailures.map { "\(route.name): \($0.crash == nil ? "" : "crashed: ")\($0.label) \($0.path) \($0.value)" }
        }
    }

    /// Variants per run of the six routes (the page's second order, which has a note, adds its own).
    static let variantsPerRun = 52

    @Test(arguments: [true, false]) func theCorrectClientDecodesEveryVariant(isolated: Bool) async throws {
        let report = try await verify(bug: nil, isolated: isolated)
        #expect(report.failedRouteNames == [])
        #expect(Self.refused(report) == [])
        #expect(report.routes.allSatisfy { $0.variantsChecked > 0 })
        #expect(report.routes.reduce(0) { $0 + $1.variantsChecked } == Self.variantsPerRun)
        #expect(report.notes == [])
        #expect(report.exitCode == 0)
    }

    /// The figure the issue asks for: every planted bug caught, none raised on the correct client.
    @Test func caughtOverPlanted() async throws {
        var caught: [ShopClient.Bug] = []
        for bug in ShopClient.Bug.allCases where try await !Self.refused(verify(bug: bug)).isEmpty { caught.append(bug) }
        let falseAlarms = Self.refused(try await verify(bug: nil)).count
        print("variants: caught/planted \(caught.count)/\(ShopClient.Bug.allCases.count), \(falseAlarms) false alarms")
        #expect(caught == ShopClient.Bug.allCases)
        #expect(falseAlarms == 0)
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
                    #"orders: date-time with fractional seconds $.orders[0].placed_at "2024-04-30T10:00:00.123Z""#,
                    #"orders: date-time with fractional seconds $.orders[1].placed_at "2024-05-01T12:00:00.123Z""#,
                    #"shipment: date-time with fractional seconds $.events[0].at "2024-05-02T09:15:00.123+02:00""#,
                ]
            case .firstOfEmptyArray: ["product: empty array $.images []"]
            case .forcedFirstImage: ["product: crashed: empty array $.images []"]
            // Only the page's second order has a note: the first element's variants cannot show it.
            case .pageNoteNeverNull: ["orders: nullable key null $.orders[1].note null"]
            case .oneBranchOnly: [#"payment: oneOf option 2 $ {"kind":"paypal","email":"example"}"#]
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

    /// A decoder that traps (`images.first!` on `[]`) ends the decoding child, not the run: the
    /// variant is reported with the route, its path and the signal, and the other routes are checked.
    @Test func aDecoderThatTrapsIsReportedAndTheRunGoesOn() async throws {
        let report = try await verify(bug: .forcedFirstImage, strict: true)
        #expect(report.failedRouteNames == ["product"])
        let failure = try #require(report.route("product")?.variantFailures.first)
        let crash = try #require(failure.crash)
        #expect(["SIGILL (signal 4)", "SIGTRAP (signal 5)"].contains(crash), "\(crash)")
        #expect(failure.error.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value"), "\(failure.error)")
        #expect(failure.description.hasPrefix(#"response "default": the decoder crashed on variant $.images: empty array ([]), SIG"#), "\(failure.description)")
        // The product's variants after the crash, and every other route's, were decoded by a fresh child.
        #expect(report.routes.count == 6)
        #expect(report.routes.reduce(0) { $0 + $1.variantsChecked } == Self.variantsPerRun)
        #expect(report.routes.flatMap(\.variantFailures).count == 1)
        let text = TextReport.render(report)
        #expect(text.contains("the decoder crashed on variant $.images: empty array ([]), SIG"), "\(text)")
        #expect(text.contains("52 variants, 1 refused (1 crashed the decoder)"), "\(text)")
        let json = try JSONParser.parse(JSONReport.render(report))
        let product = json.objectValue?["routes"]?.arrayValue?.first { $0.objectValue?["name"] == "product" }
        let reported = product?.objectValue?["variants"]?.objectValue?["failures"]?.arrayValue?.first?.objectValue
        #expect(reported?["crash"] == .string(crash))
        #expect(reported?["path"] == "$.images")
        #expect(JUnitReport.render(report).contains("the decoder crashed on variant $.images: empty array"))
    }

    /// The same through the gate executable itself, as CI runs it: its `main` starts the child.
    @Test func aGateExecutableReportsTheCrashAndExitsOne() throws {
        let files = try ShopContracts.set()
        let process = ChildProcess(Self.shopGate, ["--contracts", files.contracts.path, "--fixtures", files.fixtures.path, "--strict-variants", "--format", "json"])
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKAPI_") }
        environment["SHOP_BUG"] = ShopClient.Bug.forcedFirstImage.rawValue
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = nil
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        let json = try JSONParser.parse(Array(output))
        let routes = json.objectValue?["routes"]?.arrayValue ?? []
        #expect(routes.count == 6)
        let failed = routes.filter { $0.objectValue?["outcome"] == "fail" }.compactMap { $0.objectValue?["name"]?.stringValue }
        #expect(failed == ["product"])
        let message = routes.first { $0.objectValue?["name"] == "product" }?.objectValue?["failures"]?.arrayValue?.first?.objectValue?["message"]?.stringValue
        #expect(message?.contains("the decoder crashed on variant $.images: empty array") == true, "\(message ?? "")")
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

    /// 120 routes (20 copies of the six), all variants decoded in the gate's child process: the
    /// whole run, requests included, and the same run without variants, so the variants' own cost shows.
    @Test func aHundredRoutesTakeSeconds() async throws {
        let plain = try await {
            let files = try ShopContracts.set(copies: 20)
            let set = try ContractSet.load(contracts: files.contracts, fixtures: files.fixtures)
            return try await ContractRunner(set: set, checks: ShopClient.checks(bug: nil, copies: 20)).run()
        }()
        let report = try await verify(bug: nil, copies: 20)
        let inProcess = try await verify(bug: nil, copies: 20, isolated: false)
        let variants = report.routes.reduce(0) { $0 + $1.variantsChecked }
        print(
            "variants timing: \(report.routes.count) routes, \(variants) variants decoded in a run of \(String(format: "%.2f", report.seconds)) s "
                + "(\(String(format: "%.2f", inProcess.seconds)) s decoded in process, \(String(format: "%.2f", plain.seconds)) s without variants)")
        #expect(report.routes.count == 120)
        #expect(variants == 20 * Self.variantsPerRun)
        #expect(Self.refused(report) == [])
        #expect(report.seconds < 30)
    }
}
