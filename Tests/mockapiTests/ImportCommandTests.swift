import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

struct ImportCommandTests {
    static let resources = BundledAPI.root.appendingPathComponent("Tests/MockAPIImportTests/Resources")

    @Test func importOpenAPIWritesALintableSetAndRefusesToOverwriteIt() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let petstore = Self.resources.appendingPathComponent("petstore.yaml").path
        let first = try CommandLineRunner.run(["import", "openapi", petstore, "--out", out.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "mockapi import openapi: 9 contracts, 16 responses, 14 fixtures written to \(out.path)\n")
        #expect(first.stderr.split(separator: "\n").count == 4 && first.stderr.hasPrefix("warning: petstore.yaml: "))

        let lint = try CommandLineRunner.run(["lint", "--contracts", out.appendingPathComponent("contracts").path, "--fixtures", out.appendingPathComponent("fixtures").path])
        #expect(lint.status == 0, "\(lint.stderr)")

        let again = try CommandLineRunner.run(["import", "har", Self.resources.appendingPathComponent("mobile-session.har").path, "--out", out.path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists and is not empty; choose another --out or pass --force"))
        let forced = try CommandLineRunner.run(["import", "har", Self.resources.appendingPathComponent("mobile-session.har").path, "--out", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("mockapi import har: 10 contracts, 13 responses, 12 fixtures written to"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("contracts/pets").path))
    }

    /// A pipe or a CI log gets the warnings and the summary, and no progress line.
    @Test func importOpenAPIShowsNoProgressWhenStderrIsNotATerminal() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }

        let result = try CommandLineRunner.run(["import", "openapi", Self.resources.appendingPathComponent("petstore.yaml").path, "--out", out.path])

        #expect(result.status == 0)
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"))
        #expect(!result.stderr.contains("operations read") && !result.stderr.contains("reading "))
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("warning: ") })
    }

    /// On a terminal the line is rewritten in place (`\r`, erase line) and erased before the
    /// warnings, so they start on a clean line.
    @Test func importOpenAPIShowsProgressOnATerminal() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let terminal = try PseudoTerminal()
        let (process, stdout, _) = CommandLineRunner.process(
            ["import", "openapi", Self.resources.appendingPathComponent("petstore.yaml").path, "--out", out.path])
        process.standardError = terminal.terminal
        try process.run()
        let summary = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let text = terminal.readAll()

        #expect(process.terminationStatus == 0)
        #expect(summary.hasPrefix("mockapi import openapi: 9 contracts"), "progress stays off stdout")
        #expect(text.hasPrefix("\r\u{1B}[Kmockapi import openapi: reading petstore.yaml…\r\u{1B}[Kmockapi import openapi: 1 of "), "\(text.debugDescription)")
        #expect(text.contains(" operations read, "))
        #expect(text.contains("\r\u{1B}[Kwarning: petstore.yaml: "), "cleared before the first warning: \(text.debugDescription)")
        #expect(text.contains("\r\u{1B}[Kmockapi import openapi: writing 9 contracts…\r\u{1B}[K"))
    }

    @Test func unreadableInputExitsTwoNamingTheFileAndPathAndWritesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("capture.har")
        try Data(#"{"log": {"entries": [{"request": {"method": "GET"}, "response": {"status": 200}}]}}"#.utf8).write(to: har)
        let result = try CommandLineRunner.run(["import", "har", har.path, "--out", folder.appendingPathComponent("out").path])
        #expect(result.status == 2)
        #expect(result.stderr == "mockapi import har: \(har.path): $.log.entries[0].request: missing key \"url\" (is this a HAR file?)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func exportOpenAPIPrintsTheBundledSetAsOpenAPI31() throws {
        let result = try CommandLineRunner.run(["export", "openapi"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONParser.parse(result.stdout).objectValue)
        #expect(document["openapi"] == "3.1.0")
        #expect(document["paths"]?.objectValue?.keys.count == 16)
    }

    /// Runs `mockapi` and kills it (by its PID) if it has not ended after `seconds`; nil then.
    static func run(_ arguments: [String], within seconds: Double) throws -> CommandLineRunner.Result? {
        let (process, stdout, stderr) = CommandLineRunner.process(arguments)
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile(), err = stderr.fileHandleForReading.readDataToEndOfFile()
        return CommandLineRunner.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// A 500-byte alias bomb used to keep `import openapi` busy for ever; a YAML mistake printed
    /// "The operation could not be completed. (Yams.YamlError error 2.)".
    @Test func hostileOrBrokenYAMLExitsTwoWithinSecondsNamingTheLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var bomb = "openapi: 3.1.0\ninfo: {title: bomb, version: '1'}\npaths: {}\nx-bomb:\n  a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1..<9 { bomb += "  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",") + "]\n" }
        let bombFile = folder.appendingPathComponent("bomb.yaml")
        try Data(bomb.utf8).write(to: bombFile)
        let refused = try #require(
            try Self.run(["import", "openapi", bombFile.path, "--out", folder.appendingPathComponent("out").path], within: 20),
            "import of a YAML alias bomb did not end within 20 s")
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("mockapi import openapi: \(bombFile.path):"), "\(refused.stderr)")
        #expect(refused.stderr.contains("aliases of &a"), "\(refused.stderr)")

        let broken = folder.appendingPathComponent("api.yaml")
        try Data("openapi: 3.1.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a: b: c\n".utf8).write(to: broken)
        let result = try #require(try Self.run(["import", "openapi", broken.path, "--out", folder.appendingPathComponent("out").path], within: 20))
        #expect(result.status == 2)
        #expect(result.stderr == "mockapi import openapi: \(broken.path):6:8: mapping values are not allowed in this context\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// A status of 99999 used to fail the whole import with "please report this".
    @Test func aHARImportSkipsAnEntryWithAStatusThatIsNotHTTPAndWritesTheRest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("capture.har")
        try Data(
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/v1/odd"}, "response": {"status": 99999}}, {"request": {"method": "GET", "url": "https://a.example/v1/items"}, "response": {"status": 200}}]}}"#
                .utf8
        ).write(to: har)
        let out = folder.appendingPathComponent("out")
        let result = try #require(try Self.run(["import", "har", har.path, "--out", out.path], within: 20))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "warning: capture.har: $.log.entries[0]: status 99999 is not an HTTP status (100-599); skipped\n")
        #expect(result.stdout == "mockapi import har: 1 contracts, 1 responses, 0 fixtures written to \(out.path); 1 entry skipped\n")
    }
}
