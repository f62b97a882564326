import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct ServedUploadTests {
    static let uploadPath = "/v1/projects/1/updates/draft/images"

    /// SHA-256 by coreutils, so the journal is checked against an implementation not ours.
    private func sha256sum(_ file: URL) throws -> String {
        String(try ExternalTool.run(["sha256sum", file.path]).stdout.prefix(64))
    }

    @Test func curlUploadIsJournaledWithTheFilesSHA256() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString).jpg")
        try jpegBytes(200 * 1024).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withMockServer { server in
            let curl = try ExternalTool.run([
                "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-F", "image=@\(file.path);type=image/jpeg",
                server.baseURL.absoluteString + Self.uploadPath,
            ])
            #expect(curl.stdout == "200")
            let entry = try #require(server.journal().last)
            #expect(entry.contract == "upload_draft_image")
            #expect(
                entry.parts == [
                    ReceivedPart(
                        name: "image", filename: file.lastPathComponent, contentType: "image/jpeg",
                        bytes: 200 * 1024, sha256: try sha256sum(file))
                ])
        }
    }

    @Test func journalOverHTTPListsPartsWithDigest() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("image", "cover.png", "image/png", Data("png bytes".utf8))]
            _ = try RawHTTP.request(server.port, "POST", Self.uploadPath, headers: ["Content-Type": body.contentType], body: body.data)
            let journal = try RawHTTP.request(server.port, "GET", "/__mockapi/requests")
            let entries = try JournalEntry.page(from: journal.body)
            #expect(entries.count == 1, "admin requests are not journaled")
            #expect(
                entries.first?.parts
                    == [ReceivedPart(name: "image", filename: "cover.png", contentType: "image/png", bytes: 9, sha256: SHA256.hex(of: Array("png bytes".utf8)))])
            #expect(entries.first?.status == 200)
            #expect(entries.first?.contract == "upload_draft_image")
            #expect(try RawHTTP.request(server.port, "DELETE", "/__mockapi/requests").status == 200)
            #expect(try JournalEntry.page(from: RawHTTP.request(server.port, "GET", "/__mockapi/requests").body).isEmpty)
        }
    }

    @Test func disallowedContentTypeAndRenamedPartGet422() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("photo", "a.txt", "text/plain", Data("x".utf8))]
            let response = try RawHTTP.request(server.port, "POST", Self.uploadPath, headers: ["Content-Type": body.contentType], body: body.data)
            #expect(response.status == 422)
            #expect(response.text.contains("part.image"))
            #expect(response.text.contains("unexpected part"))
        }
    }

    @Test func truncatedMultipartGets400AndTheServerGoesOn() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("image", "a.jpg", "image/jpeg", jpegBytes(5000))]
            let truncated = body.data.prefix(3000)
            let response = try RawHTTP.request(server.port, "POST", Self.uploadPath, headers: ["Content-Type": body.contentType], body: truncated)
            #expect(response.status == 400)
            #expect(response.text.contains("truncated upload"))
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func quotedFilenameKeepsItsSemicolon() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("image", "a;b.png", "image/png", Data("png".utf8))]
            let response = try RawHTTP.request(server.port, "POST", Self.uploadPath, headers: ["Content-Type": body.contentType], body: body.data)
            #expect(response.status == 200)
            #expect(server.journal().last?.parts.first?.filename == "a;b.png")
        }
    }

    @Test func partHeadersOverTheLimitGet400EvenInOneRead() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("image", String(repeating: "n", count: 20_000) + ".jpg", "image/jpeg", jpegBytes(10))]
            // Sent in one write: the whole part header arrives in one chunk, with its end.
            let response = try RawHTTP.request(server.port, "POST", Self.uploadPath, headers: ["Content-Type": body.contentType], body: body.data)
            #expect(response.status == 400)
            #expect(response.text.contains("part headers are longer than 16384 bytes"))
        }
    }

    @Test func wrongBoundaryGets400() async throws {
        try await withMockServer { server in
            var body = MultipartBody()
            body.parts = [("image", "a.jpg", "image/jpeg", jpegBytes(100))]
            let response = try RawHTTP.request(
                server.port, "POST", Self.uploadPath,
                headers: ["Content-Type": "multipart/form-data; boundary=not-the-one"], body: body.data)
            #expect(response.status == 400)
            #expect(response.text.contains(#"no part starts with the boundary given in Content-Type, \"--not-the-one\" (the body starts \"--mockapi-test-boundary"#))
            #expect(response.headers["mockapi-contract"] == "upload_draft_image", "a 400 names the contract the path matched")
        }
    }

    @Test func closingBoundaryWithoutItsCRLFIsAcceptedAndJournaled() async throws {
        try await withMockServer { server in
            let image = jpegBytes(100)
            let body =
                Data("--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                + image + Data("--b--\r\n".utf8)
            let response = try RawHTTP.request(
                server.port, "POST", Self.uploadPath,
                headers: ["Content-Type": "multipart/form-data; boundary=b"], body: body)
            #expect(response.status == 200, "\(response.text)")
            let part = try #require(server.journal().last?.parts.first)
            #expect(part.bytes == image.count)
            #expect(part.sha256 == SHA256.hex(of: image))
        }
    }
}
