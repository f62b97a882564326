import Foundation
import MockAPIVerify
import Testing

/// The contracts `mockapi import openapi` made of the same document (scripts/generated-client-check
/// imports it and names the folder in $MOCKAPI_GENERATED_CLIENT_CONTRACTS).
func importedFolder() throws -> URL {
    let path = try #require(
        ProcessInfo.processInfo.environment["MOCKAPI_GENERATED_CLIENT_CONTRACTS"],
        "run through scripts/generated-client-check, which imports the document and sets MOCKAPI_GENERATED_CLIENT_CONTRACTS")
    return URL(fileURLWithPath: path)
}

func importedContracts(in folder: URL? = nil) throws -> ContractSet {
    let root = try folder ?? importedFolder()
    return try ContractSet.load(contracts: root.appendingPathComponent("contracts"), fixtures: root.appendingPathComponent("fixtures"))
}

/// One Swift Testing result per operation, each on its own in-process server.
@Test(arguments: PetstoreOperations.all())
func operation(_ check: OperationCheck) async throws {
    let report = try await OperationRunner(set: try importedContracts(), checks: [check], options: VerifyOptions(scope: .claimed)).run()
    #expect(report.exitCode == 0, "\(TextReport.render(report, name: "petstore operations"))")
}

/// The whole client at once: every contract the document made is some operation's, and the
/// report reads as `mockapi verify`'s.
@Test func everyOperationOfTheDocumentIsChecked() async throws {
    let report = try await OperationRunner(
        set: try importedContracts(), checks: PetstoreOperations.all(), options: VerifyOptions(strictCoverage: true)
    ).run()
    print(TextReport.render(report, name: "petstore operations"))
    #expect(report.exitCode == 0)
    #expect(report.routes.count == 19)
    #expect(report.uncoveredContracts.isEmpty)
}

/// The whole client through a running `mockapi serve` of the same contracts (the script starts
/// it and names it in $MOCKAPI_GENERATED_CLIENT_BASE_URL; `mockapi coverage --strict` then reads
/// its journal). The only test that uses that server, so its journal holds this run alone.
@Test(.enabled(if: ProcessInfo.processInfo.environment["MOCKAPI_GENERATED_CLIENT_BASE_URL"] != nil))
func everyOperationThroughARunningServer() async throws {
    let url = try #require(ProcessInfo.processInfo.environment["MOCKAPI_GENERATED_CLIENT_BASE_URL"].flatMap(URL.init(string:)))
    let report = try await OperationRunner(
        set: try importedContracts(), checks: PetstoreOperations.all(), options: VerifyOptions(strictCoverage: true)
    ).run(against: url, target: "mockapi serve \(url.absoluteString)")
    #expect(report.exitCode == 0, "\(TextReport.render(report, name: "petstore operations"))")
}
