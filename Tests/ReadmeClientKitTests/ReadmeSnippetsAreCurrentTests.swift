import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// Every ```swift block of README.md is a source file the build compiles (scripts/readme-snippets
/// writes them) or is marked a fragment: a README edit that is not regenerated fails here.
@Test func everyReadmeSwiftBlockIsCompiled() throws {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", BundledAPI.root.appendingPathComponent("scripts/readme-snippets").path, "--check"]
    let stderr = Pipe()
    process.standardError = stderr
    try process.run()
    let problems = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationStatus == 0, "\(problems)")
}
