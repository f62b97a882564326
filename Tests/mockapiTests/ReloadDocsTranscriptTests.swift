import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// docs/server.md's reload transcript: `serve --watch` on a copy of the bundled set, a contract
/// saved unchanged, then `contracts/oops.json` saved holding `{oops`.
extension ReadmeTranscriptTests {
    @Test func reloadWithWatch() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let run = try CommandLineRunner.MergedRun(["serve", "--watch", "--quiet", "--port", "0"], in: set.root, limit: 20)
        run.read(until: " routes)\n")
        // The watcher is armed before the listening line, so an edit at once is seen.
        let category = set.root.appendingPathComponent("contracts/categories/category.json")
        try Data(contentsOf: category).write(to: category)
        run.read(until: "mockapi: reloaded")
        try set.write("{oops", to: "contracts/oops.json")
        run.read(until: "still serving the previous set\n")
        let text = run.finish()
        #expect(text.contains("mockapi: still serving the previous set"), "stopped by the watchdog? output:\n\(text)")
        Self.expectTranscript("mockapi serve --watch --quiet", matches: text)
    }
}
