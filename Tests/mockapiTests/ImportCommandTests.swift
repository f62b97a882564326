import Foundation
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
        #expect(first.stdout == "mockapi import openapi: 8 contracts, 13 responses, 12 fixtures written to \(out.path); 1 operation skipped\n")
        #expect(first.stderr.split(separator: "\n").count == 3 && first.stderr.hasPrefix("warning: petstore.yaml: "))

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
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        #expect((document["paths"] as? [String: Any])?.count == 16)
    }
}
