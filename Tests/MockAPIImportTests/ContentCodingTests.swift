import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// Recorded answers sent compressed: decoded as a client reads them (the bytes from the system's
/// `gzip`, an outside encoder), kept as they came when zlib cannot read them or they would grow
/// past the cap.
struct ContentCodingTests {
    static let json = Array(#"{"gzipped": true, "items": [1, 2, 3]}"#.utf8)

    /// `bytes` compressed by `gzip -c`, `members` times over, one gzip member after another.
    static func gzip(_ bytes: [UInt8], members: Int = 1) throws -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<members { out += try compressed(by: "gzip -c", input: Data(bytes)) }
        return out
    }

    /// What `command` (a shell pipeline ending in a compressor) writes, read back as bytes.
    static func compressed(by command: String, input: Data? = nil) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-coding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ExternalTool.run(["sh", "-c", "\(command) > '\(file.path)'"], input: input)
        #expect(run.status == 0, "\(run.stderr)")
        return Array(try Data(contentsOf: file))
    }

    static func exchange(body: [UInt8], encoding: String?) -> RecordedExchange {
        var headers = [HTTPField("Content-Type", "application/json")]
        if let encoding { headers.append(HTTPField("Content-Encoding", encoding)) }
        return RecordedExchange(method: "GET", url: "https://api.example.com/gzip", status: 200, responseHeaders: headers, responseBody: body)
    }

    @Test func aRecordedGzipAnswerIsKeptDecodedWithoutItsEncoding() throws {
        let decoded = Self.exchange(body: try Self.gzip(Self.json), encoding: "gzip").decodingContent(bodyIsDecoded: false)
        #expect(decoded.responseBody == Self.json)
        #expect(!decoded.responseHeaders.contains { $0.name == "Content-Encoding" })
        // Concatenated members are one body, as clients read them.
        let twice = Self.exchange(body: try Self.gzip(Self.json, members: 2), encoding: "gzip").decodingContent(bodyIsDecoded: false)
        #expect(twice.responseBody == Self.json + Self.json)
    }

    @Test func brotliAndBrokenOrHugeBodiesStayAsTheyCame() throws {
        let brotli = Self.exchange(body: [0x8b, 0x05, 0x80, 0x7b, 0x7d, 0x03], encoding: "br")
        #expect(brotli.decodingContent(bodyIsDecoded: false).responseHeaders == brotli.responseHeaders)
        let broken = Self.exchange(body: Array(try Self.gzip(Self.json).dropLast(12)), encoding: "gzip")
        #expect(broken.decodingContent(bodyIsDecoded: false).responseBody == broken.responseBody)
        // 65 MiB of zeros: a small gzip that would grow past the cap is kept compressed, with its header.
        let bomb = Self.exchange(body: try Self.compressed(by: "head -c 68157440 /dev/zero | gzip -c"), encoding: "gzip")
        #expect(bomb.responseBody.count < 1_000_000)
        let kept = bomb.decodingContent(bodyIsDecoded: false)
        #expect(kept.responseBody == bomb.responseBody && kept.responseHeaders == bomb.responseHeaders)
    }

    /// A HAR holds the decoded body under the header the backend sent: the header goes, the body stays.
    @Test func aHARBodyIsAlreadyDecoded() throws {
        let har = Self.exchange(body: Self.json, encoding: "br").decodingContent(bodyIsDecoded: true)
        #expect(har.responseBody == Self.json)
        #expect(har.responseHeaders == [HTTPField("Content-Type", "application/json")])
        let raw = Self.exchange(body: try Self.gzip(Self.json), encoding: "gzip").decodingContent(bodyIsDecoded: true)
        #expect(raw.responseBody == Self.json)
    }
}
