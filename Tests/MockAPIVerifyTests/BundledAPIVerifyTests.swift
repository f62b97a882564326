import ExampleAPIChecks
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// The bundled client and the bundled contracts agree: the baseline every other suite breaks.
@Suite struct BundledAPIVerifyTests {
    @Test func unchangedBundlePassesEveryRoute() async throws {
        let report = try await verify()

        #expect(report.routes.count == RouteKind.allCases.count)
        #expect(report.failedRouteNames == [])
        #expect(report.passed == report.routes.count)
        #expect(report.uncoveredContracts == [])
        #expect(report.exitCode == 0)
        #expect(report.routes.allSatisfy { $0.request != nil })
    }

    @Test func unchangedBundlePassesUnderStrictWithoutDrift() async throws {
        let report = try await verify(strict: true)

        #expect(report.failedRouteNames == [])
        #expect(report.routes.flatMap(\.warnings) == [])
        #expect(report.exitCode == 0)
    }
}
