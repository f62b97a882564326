// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import ExampleAPI   // the app's module, with its Navigation table
import MockAPIVerify
import TeamApp
import Testing

@Test func everyLinkInTheFixturesIsLive() async throws {
    let deepLinks = DeepLinkCheck(hosts: [Navigation.host]) { url in Navigation.match(url) != nil }
    let options = VerifyOptions(scope: .claimed, transport: TeamClient().transport, deepLinks: deepLinks)
    let report = try await ContractRunner(set: try appContracts(), checks: AppContractChecks.all(), options: options).run()
    #expect(report.deadLinks.isEmpty, "\(report.deadLinks.map(\.description).joined(separator: "\n"))")
}
