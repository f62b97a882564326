import MockAPITestSupport
import Testing

@testable import MockAPICore

struct MultipartParserTests {
    static let body = Array(
        ("preamble to ignore\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhello\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a b.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
            + "\u{FF}\u{D8}data with \r\n--XyZnot a boundary\r\n"
            + "--XyZ--\r\n").utf8)

    struct Part: Equatable {
        var headers: MultipartParser.PartHeaders
        var data: [UInt8] = []
    }

    /// Feeds `body` in chunks of `chunkSize` and collects the parts.
    private func parse(_ body: [UInt8], boundary: String = "XyZ", chunkSize: Int) throws -> [Part] {
        var parser = try MultipartParser(boundary: boundary)
        var parts: [Part] = []
        func collect(_ event: MultipartParser.Event) {
            switch event {
            case .begin(let headers): parts.append(Part(headers: headers))
            case .data(let bytes): parts[parts.count - 1].data += bytes
            case .end: break
            }
        }
        var start = 0
        while start < body.count {
            let end = min(start + chunkSize, body.count)
            try body[start..<end].withUnsafeBytes { chunk in try parser.feed(chunk, collect) }
            start = end
        }
        try parser.finish(collect)
        return parts
    }

    @Test func parsesPartsWhateverTheChunkBoundaries() throws {
        let expected = try parse(Self.body, chunkSize: Self.body.count)
        #expect(expected.map(\.headers.name) == ["caption", "image"])
        #expect(expected[0].data == Array("hello".utf8))
        #expect(expected[1].headers == .init(name: "image", filename: "a b.jpg", contentType: "image/jpeg"))
        #expect(expected[1].data == Array("\u{FF}\u{D8}data with \r\n--XyZnot a boundary".utf8))
        for size in 1...40 {
            #expect(try parse(Self.body, chunkSize: size) == expected, "chunk size \(size)")
        }
    }

    /// The boundary search skips to candidate bytes (`memchr`): a binary part full of CRs, CRLFs
    /// and delimiter prefixes must come out byte for byte, wherever the chunks split it.
    @Test func binaryPartWithManyFalseDelimiterStartsComesOutWhole() throws {
        var generator = SplitMix64(seed: 20)
        let pieces: [[UInt8]] = [
            [0x0D], [0x0D, 0x0A], Array("\r\n-".utf8), Array("\r\n--".utf8), Array("\r\n--Xy".utf8),
            Array("\r\n--XyZ!".utf8), [0x0A, 0x2D],
        ]
        var data: [UInt8] = []
        while data.count < 50_000 {
            if generator.next() % 4 == 0 {
                data += pieces[Int(generator.next() % UInt64(pieces.count))]
            } else {
                // Never a random "Z": "\r\n--Xy" + "Z" + a CRLF would be a real delimiter.
                let byte = UInt8(truncatingIfNeeded: generator.next())
                data.append(byte == UInt8(ascii: "Z") ? byte + 1 : byte)
            }
        }
        data.append(0x0D) // a CR right before the closing delimiter
        let body =
            Array("--XyZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.bin\"\r\n\r\n".utf8)
            + data + Array("\r\n--XyZ--\r\n".utf8)
        for size in [1, 2, 3, 7, 64, 1000, 4096, body.count] {
            let parts = try parse(body, chunkSize: size)
            #expect(parts.count == 1, "chunk size \(size)")
            #expect(parts.first?.data == data, "chunk size \(size)")
        }
    }

    @Test func wrongBoundaryIsReported() {
        #expect(throws: MultipartParser.Failure(description: #"no part starts with the boundary given in Content-Type, "--other" (the body starts "preamble to ignore\r\n--XyZ\r\nContent-Dispo")"#)) {
            try parse(Self.body, boundary: "other", chunkSize: 7)
        }
    }

    @Test func truncatedBodyIsReportedWithThePartAndItsBytes() {
        #expect(
            throws: MultipartParser.Failure(
                description: #"the body ended inside part "image" after about 10 bytes, with no closing "--XyZ--" (a truncated upload, or a Content-Length larger than the body)"#)
        ) {
            try parse(Array(Self.body.prefix(195)), chunkSize: 13)
        }
        #expect(throws: MultipartParser.Failure(description: "the body ended inside the headers of a part (no blank line after them)")) {
            try parse(Array(Self.body.prefix(60)), chunkSize: 13)
        }
    }

    @Test func lastBoundaryWithoutItsClosingDashesIsCalledThat() {
        let parts = "--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhello\r\n--XyZ"
        let missingDashes = "the body ended without its closing \"--XyZ--\": its last boundary has no \"--\" after it"
        for ending in ["\r\n", "", "\r\n\r\n"] {
            for size in [1, 7, 100] {
                #expect(throws: MultipartParser.Failure(description: missingDashes), "ending \(ending.debugDescription), chunk size \(size)") {
                    try parse(Array((parts + ending).utf8), chunkSize: size)
                }
            }
        }
    }

    @Test func closingDelimiterWithoutTheCRLFBeforeItIsAccepted() throws {
        // As a widely used iOS client frames it: the last part's bytes run straight into "--XyZ--".
        let body = Array(("--XyZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n\r\n" + "\u{FF}\u{D8}jpeg-bytes" + "--XyZ--\r\n").utf8)
        for size in [1, 3, 7, body.count] {
            let parts = try parse(body, chunkSize: size)
            #expect(parts.map(\.headers.name) == ["image"], "chunk size \(size)")
            #expect(parts.first?.data == Array("\u{FF}\u{D8}jpeg-bytes".utf8), "chunk size \(size)")
        }
        let withoutNewline = Array(body.dropLast(2))
        #expect(try parse(withoutNewline, chunkSize: 5).first?.data == Array("\u{FF}\u{D8}jpeg-bytes".utf8))
    }

    @Test func partWithoutANameIsReported() {
        let body = Array("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--".utf8)
        #expect(throws: MultipartParser.Failure(description: "a part has no name in its Content-Disposition header")) {
            try parse(body, boundary: "b", chunkSize: 5)
        }
    }
}
