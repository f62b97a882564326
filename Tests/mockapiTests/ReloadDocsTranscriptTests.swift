import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// docs/server.md's reload transcript: `serve --watch` on a copy of the bundled set, a contract
/// saved unchanged, then `contracts/oops.json` saved holding `{oops`.
extension ReadmeTranscriptTests {
    @Test func reloadWithWatch() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let (process, _, _) = CommandLineRunner.process(["serve", "--watch", "--quiet", "--port", "0"])
        process.currentDirectoryURL = set.root
        let terminal = Pipe()
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        // Every read below blocks until output comes: a line that never comes would hang the
        // suite, so the server is stopped after 20 s whatever happens (its pipe then ends).
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        defer { watchdog.cancel() }
        var output = Data()
        /// Reads the merged output until it holds `text` (or the process ends).
        func read(until text: String) -> String {
            while !String(decoding: output, as: UTF8.self).contains(text) {
                let chunk = terminal.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output += chunk
            }
            return String(decoding: output, as: UTF8.self)
        }
        _ = read(until: " routes)\n")
        // The watcher is armed only after the listening line: an edit at once is missed (this
        // pin hung on that, waiting for "reloaded" with no bound). A second is plenty.
        Thread.sleep(forTimeInterval: 1)
        let category = set.root.appendingPathComponent("contracts/categories/category.json")
        try Data(contentsOf: category).write(to: category)
        _ = read(until: "mockapi: reloaded")
        try set.write("{oops", to: "contracts/oops.json")
        _ = read(until: "still serving the previous set\n")
        process.terminate()
        output += terminal.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("mockapi: still serving the previous set"), "stopped by the watchdog? output:\n\(text)")
        Self.expectTranscript("mockapi serve --watch --quiet", matches: text)
    }
}
