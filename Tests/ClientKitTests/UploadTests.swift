import ClientKit
import Foundation
import Testing

@Suite struct UploadTests {
    @Test(arguments: [
        ("photo.JPG", "image/jpeg"), ("photo.jpeg", "image/jpeg"), ("a.png", "image/png"), ("a.gif", "image/gif"),
        ("clip.mp4", "video/mp4"), ("clip.mov", "video/quicktime"),
    ])
    func contentTypeComesFromTheExtension(fileName: String, expected: String) {
        #expect(Upload(partName: "file", fileName: fileName, data: Data()).contentType == expected)
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0] as [UInt8], "image/jpeg"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
        (Array("GIF89a".utf8), "image/gif"),
        ([0, 0, 0, 0x18] + Array("ftypmp42".utf8), "video/mp4"),
        ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8), "video/quicktime"),
        (Array("hello".utf8), "application/octet-stream"),
        ([], "application/octet-stream"),
    ])
    func contentTypeIsSniffedWithoutAKnownExtension(bytes: [UInt8], expected: String) {
        #expect(Upload(partName: "file", fileName: "upload", data: Data(bytes)).contentType == expected)
    }

    @Test func explicitContentTypeWins() {
        #expect(Upload(partName: "file", fileName: "a.jpg", contentType: "image/heic", data: Data()).contentType == "image/heic")
    }

    @Test func fileReadsBytesAndName() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("clientkit-\(UUID().uuidString).gif")
        try Data("GIF87a".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let upload = try Upload.file(url, partName: "image")
        #expect(upload.fileName == url.lastPathComponent)
        #expect(upload.contentType == "image/gif")
        #expect(upload.data == Data("GIF87a".utf8))
    }
}
