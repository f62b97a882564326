import Foundation
import MockAPICore
import Testing

/// The public documents of the shared OpenAPI corpus (see its SOURCES.md), read where they are:
/// they are never copied into this repository. Found at `$MOCKAPI_OPENAPI_CORPUS`, else at
/// `shared/openapi-corpus` beside the clone (CI's layout). Tests that read it carry `.needsCorpus`:
/// skipped when it is absent, unless `MOCKAPI_REQUIRE_CORPUS=1` (set by `.ci/run`) makes its
/// absence a failure.
enum OpenAPICorpus {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["MOCKAPI_OPENAPI_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/openapi-corpus")
    }()

    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("SOURCES.md").path) }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["MOCKAPI_REQUIRE_CORPUS"] == "1" }

    /// Single-file documents, by file name.
    static let documents = [
        "01-stripe-spec3.json", "02-kubernetes-swagger.json", "03-moby-engine-swagger.yaml", "04-slack-web-api.json",
        "05-twilio-api-v2010.json", "06-discord-api.json", "07-adyen-balanceplatform-v2.json", "08-xero-files.yaml",
        "09-swagger-petstore3.yaml", "11-swagger-petstore31.yaml", "12-harbor-api-v2.yaml",
    ]
    static let multiFileArchive = "10-influxdata-src-multifile.tar.gz"
    static let multiFileEntry = "influxdata-openapi-src/src/svc-notebooksd.yml"

    /// The corpus folder, or a failure that says where it was looked for.
    static func require() throws -> URL {
        guard isPresent else { throw MissingCorpus(path: folder.path) }
        return folder
    }

    struct MissingCorpus: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "the OpenAPI corpus is missing: expected \(path)/SOURCES.md (put shared/ beside the clone or set MOCKAPI_OPENAPI_CORPUS)"
        }
    }

    /// The multi-file archive unpacked into `scratch`; the entry file's URL.
    static func unpackMultiFile(into scratch: URL) throws -> URL {
        let tar = ChildProcess()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "xzf", try require().appendingPathComponent(multiFileArchive).path, "-C", scratch.path]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        return scratch.appendingPathComponent(multiFileEntry)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test where the public corpus is (or must be) present; otherwise skips it and says how to run it.
    static var needsCorpus: Self {
        .enabled(
            if: OpenAPICorpus.isPresent || OpenAPICorpus.isRequired,
            "needs the public OpenAPI corpus at \(OpenAPICorpus.folder.path) (set MOCKAPI_OPENAPI_CORPUS to run it)")
    }
}
