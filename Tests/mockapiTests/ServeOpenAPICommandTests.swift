import Foundation
import Testing

/// `mockapi serve --openapi`: a document served without an import step, and followed by `--watch`.
@Suite struct ServeOpenAPICommandTests {
    /// One operation with an example, and one the importer skips (an array body), so there is a warning to print.
    static func document(greeting: String) -> String {
        """
        openapi: 3.0.3
        info: {title: Greetings, version: "1"}
        x-notes:
          $ref: ./notes.yaml
        paths:
          /greetings/{id}:
            get:
              operationId: getGreeting
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                "200":
                  description: A greeting
                  content:
                    application/json:
                      example: {id: 7, text: \(greeting)}
          /greetings:
            post:
              operationId: postGreetings
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {type: array, items: {type: string}}
              responses:
                "201": {description: Made}

        """
    }

    /// A folder with `api.yaml`, the `notes.yaml` its `$ref` reaches, and `tmp/` for the server's
    /// TMPDIR (to see its private import folder come and go); removed at the end.
    final class DocumentFolder {
        let url: URL
        var document: String { url.appendingPathComponent("api.yaml").path }
        var temporary: String { url.appendingPathComponent("tmp").path }

        init(greeting: String = "hello") throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("serve-openapi-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: url.appendingPathComponent("tmp").path, withIntermediateDirectories: true)
            try write(ServeOpenAPICommandTests.document(greeting: greeting), to: "api.yaml")
            try write("text: notes\n", to: "notes.yaml")
        }

        func write(_ text: String, to name: String) throws {
            try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aDocumentIsServedWithItsExampleAndItsImportLeavesNothingBehind() throws {
        let folder = try DocumentFolder()
        let server = try CommandLineRunner.Server(["--quiet", "--openapi", folder.document], environment: ["TMPDIR": folder.temporary])
        #expect(server.firstLine.wholeMatch(of: /mockapi listening on http:\/\/127\.0\.0\.1:[1-9][0-9]* \(2 routes\)/) != nil, "\(server.firstLine)")
        let answer = try curl([server.baseURL + "/greetings/7"])
        #expect(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? NSDictionary == ["id": 7, "text": "hello"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary).count == 1, "the import lives in TMPDIR while serving")

        let (status, stderr) = server.stop()
        #expect(status == 0)
        #expect(stderr.contains("warning: api.yaml: POST /greetings: #/paths/~1greetings/post/requestBody/content/application~1json/schema: the JSON request body is not an object"), "\(stderr)")
        #expect(stderr.contains("mockapi serve: imported \(folder.document): 2 contracts, 2 responses, 1 fixtures\n"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary).isEmpty, "the import is removed at exit")
    }

    @Test func anEditedDocumentIsServedAndABrokenEditKeepsThePreviousTable() throws {
        let folder = try DocumentFolder()
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--openapi", folder.document])
        let url = server.baseURL + "/greetings/7"
        #expect(try curl([url]).contains("hello"))

        try folder.write(Self.document(greeting: "bonjour"), to: "api.yaml")
        #expect(try within(5) { try curl([url]).contains("bonjour") }, "the edit is served within 5 s")

        try folder.write("openapi: 3.0.3\npaths: [\n", to: "api.yaml")
        usleep(1_200_000)
        #expect(try curl([url]).contains("bonjour"), "the previous table still serves")
        #expect(try curlStatus(server.baseURL + "/__mockapi/ready") == "503", "a document that no longer imports is a failed reload")
        let (_, stderr) = server.stop()
        #expect(stderr.contains("mockapi: watching \(folder.document) and the files its $refs reach for changes"), "\(stderr)")
        #expect(stderr.contains("mockapi: reloaded (2 routes)"), "\(stderr)")
        #expect(stderr.contains("mockapi: still serving the previous set"), "\(stderr)")
    }

    @Test func anEditToAFileTheDocumentReferencesImportsItAgain() throws {
        let folder = try DocumentFolder()
        let server = try CommandLineRunner.Server(["--quiet", "--watch", "--openapi", folder.document])
        try folder.write("text: edited\n", to: "notes.yaml")
        let imports = { (stderr: String) in stderr.components(separatedBy: "mockapi serve: imported ").count - 1 }
        usleep(3_000_000) // a poll every 250 ms; the margin is for a busy machine
        let (_, stderr) = server.stop()
        #expect(imports(stderr) == 2, "imported at start and again after notes.yaml changed: \(stderr)")
        #expect(stderr.contains("mockapi: reloaded (2 routes)"), "\(stderr)")
    }

    @Test func openAPIWithContractsIsAUsageError() throws {
        let result = try CommandLineRunner.run(["serve", "--port", "0", "--openapi", "api.yaml", "--contracts", "contracts"])
        #expect(result.status == 2)
        #expect(result.stderr == "mockapi: --openapi serves the document itself; it cannot be used with --contracts or --fixtures\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aDocumentThatDoesNotImportExitsTwoWithTheReason() throws {
        let folder = try DocumentFolder()
        try folder.write("openapi: 3.0.3\npaths: [\n", to: "api.yaml")
        let result = try CommandLineRunner.run(["serve", "--port", "0", "--openapi", folder.document], environment: ["TMPDIR": folder.temporary])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("mockapi serve: \(folder.document):"), "the reason names the document: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary).isEmpty, "no folder is left behind")
    }
}
