import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// `"checkBytes": true` on a multipart part: its bytes must start as its declared Content-Type's
/// do. Real multipart bodies, written by curl from files, to a real server on 127.0.0.1.
@Suite struct PartBytesTests {
    /// The first bytes of a file of each type the check knows, as the formats define them.
    static let samples: [(type: String, ext: String, bytes: [UInt8])] = [
        ("image/png", "png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [0, 0, 0, 0x0D] + Array("IHDR".utf8)),
        ("image/jpeg", "jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1]),
        ("image/gif", "gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]),
        ("image/webp", "webp", Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
        ("image/heic", "heic", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)),
        ("video/mp4", "mp4", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8)),
        ("video/quicktime", "mov", [0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + [0x20, 0x05, 0x03, 0] + Array("qt  ".utf8)),
        ("application/pdf", "pdf", Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj".utf8)),
    ]

    static func contract(checkBytes: Bool) -> String {
        let types = samples.map { "\"\($0.type)\"" }.joined(separator: ", ")
        return """
            {"name": "upload", "request": {"method": "POST", "path": "/v1/uploads",
              "multipart": [{"name": "media", "contentTypes": [\(types), "image/heif"]\(checkBytes ? #", "checkBytes": true"# : "")},
                            {"name": "caption", "filename": false, "required": false}]},
             "responses": {"default": {"status": 201, "body": {"ok": true}}}}
            """
    }

    /// curl's answer to a form upload of `bytes` as part `media` with `type`: status and body.
    private func upload(_ bytes: [UInt8], as type: String, fileName: String, to server: RunningMockServer) throws -> (status: String, body: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("part-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(fileName)
        try Data(bytes + Array(repeating: 0x2A, count: 2048)).write(to: file)
        let answer = folder.appendingPathComponent("answer")
        let curl = try ExternalTool.run([
            "curl", "-sS", "-o", answer.path, "-w", "%{http_code}", "-F", "media=@\(file.path);type=\(type)", "-F", "caption=cover",
            server.baseURL.absoluteString + "/v1/uploads",
        ])
        return (curl.stdout, (try? String(contentsOf: answer, encoding: .utf8)) ?? "")
    }

    @Test func pngBytesLabelledJPEGAreRefusedNamingThePartAndTheTypeSeen() async throws {
        let set = try TemporaryContractSet(contracts: ["upload.json": Self.contract(checkBytes: true)])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let png = Self.samples[0].bytes
            let answer = try upload(png, as: "image/jpeg", fileName: "cover.jpg", to: server)

            #expect(answer.status == "422")
            let violations = ProblemDocument(body: Data(answer.body.utf8))?.violations ?? []
            #expect(violations.map(\.location) == ["part.media"], "\(answer.body)")
            #expect(violations.map(\.message) == ["its Content-Type says image/jpeg, but its bytes are image/png"])
            let entry = try #require(server.journal().last)
            #expect(entry.problem?.contains("part.media: its Content-Type says image/jpeg, but its bytes are image/png") == true, "\(entry.problem ?? "no problem")")
        }
    }

    @Test func eachKnownTypeWithItsOwnBytesIsAccepted() async throws {
        let set = try TemporaryContractSet(contracts: ["upload.json": Self.contract(checkBytes: true)])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            for sample in Self.samples {
                let answer = try upload(sample.bytes, as: sample.type, fileName: "file.\(sample.ext)", to: server)
                #expect(answer.status == "201", "\(sample.type): \(answer.body)")
            }
            // HEIF is HEIC's family name; `image/jpg` is the common misspelling of `image/jpeg`.
            let heif = try upload(Self.samples[4].bytes, as: "image/heif", fileName: "photo.heif", to: server)
            #expect(heif.status == "201")
        }
    }

    @Test func everyMislabelIsRefusedWithTheTypeTheBytesAre() async throws {
        let set = try TemporaryContractSet(contracts: ["upload.json": Self.contract(checkBytes: true)])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            // Each sample sent labelled as the next sample's type.
            for (offset, sample) in Self.samples.enumerated() {
                let label = Self.samples[(offset + 1) % Self.samples.count].type
                let answer = try upload(sample.bytes, as: label, fileName: "file.bin", to: server)
                #expect(answer.status == "422", "\(sample.type) as \(label)")
                #expect(answer.body.contains("its Content-Type says \(label), but its bytes are \(sample.type)"), "\(answer.body)")
            }
            let unknown = try upload(Array("hello, world".utf8), as: "image/png", fileName: "notes.png", to: server)
            #expect(unknown.status == "422")
            #expect(unknown.body.contains("its Content-Type says image/png, but its bytes start 68 65 6C 6C 6F 2C 20 77"), "\(unknown.body)")
        }
    }

    @Test func withoutTheKeyTheBytesAreNotLookedAt() async throws {
        let set = try TemporaryContractSet(contracts: ["upload.json": Self.contract(checkBytes: false)])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let answer = try upload(Self.samples[0].bytes, as: "image/jpeg", fileName: "cover.jpg", to: server)
            #expect(answer.status == "201")
        }
    }

    @Test func checkBytesOnTypesWithNoKnownSignatureIsALoadProblem() throws {
        let set = try TemporaryContractSet(contracts: [
            "upload.json": #"""
            {"name": "upload", "request": {"method": "POST", "path": "/v1/uploads",
              "multipart": [{"name": "notes", "contentTypes": ["text/plain"], "checkBytes": true}]},
             "responses": {"default": {"status": 201}}}
            """#
        ])
        #expect {
            try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
        } throws: { error in
            "\(error)".contains("checkBytes: none of the part's contentTypes has bytes mockapi can check")
        }
    }
}
