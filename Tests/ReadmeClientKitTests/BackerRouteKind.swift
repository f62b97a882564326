// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import ClientKit
import MockAPITestSupport
import MockAPIVerifyClientKit
import Testing

enum BackerRouteKind: String, CaseIterable, VerifiableRouteKind {
    case project, discover

    var contractName: String { rawValue }
    var sampleEndpoint: Endpoint {            // exhaustive switch: a new case must get a sample
        switch self {
        case .project: BackerRoute.project(id: 1).endpoint
        case .discover: BackerRoute.discover(categoryIds: [1], page: 2).endpoint
        }
    }
    var responseDecoders: [String: ResponseDecoder] {
        switch self {
        case .project: ["default": .clientKit(Project.self), "not_found": .clientKit(ErrorEnvelope.self)]
        case .discover: ["default": .clientKit(DiscoverPage.self)]
        }
    }
}

@Test(arguments: RouteCheck.all(BackerRouteKind.self, configuration: ClientConfiguration(environment: .local(port: 0), appName: "Backer")))
func backerRoute(_ check: RouteCheck) async throws {
    let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
    let report = try await ContractRunner(set: set, checks: [check], options: VerifyOptions(scope: .claimed, strictCoverage: true)).run()
    #expect(report.exitCode == 0, "\(TextReport.render(report))")
}
