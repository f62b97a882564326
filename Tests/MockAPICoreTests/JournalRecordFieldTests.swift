import Testing

@testable import MockAPICore

/// Each field of a journal record, written and read back on its own (`JournalRecordLayout`), with
/// the values a client can send to break a length-prefixed layout: empty, very long, bytes that
/// are not UTF-8, many of them, and redacted ones; and the byte budget at its edge.
@Suite struct JournalRecordFieldTests {
    /// One request to journal: a record plus the fields the server lends as bytes.
    struct Sample {
        var record = RequestRecord()
        var path: [UInt8] = Array("/".utf8)
        var contract: [UInt8]?
        var response: [UInt8]?

        func lend<Result>(_ body: (borrowing JournaledRequest) -> Result) -> Result {
            func withBytes<Inner>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> Inner) -> Inner {
                guard let bytes else { return body(nil) }
                return bytes.withUnsafeBytes { body($0) }
            }
            return path.withUnsafeBytes { path in
                withBytes(contract) { contract in
                    withBytes(response) { response in
                        body(
                            JournaledRequest(
                                receivedAt: record.receivedAt, method: record.method, path: path, query: record.query,
                                headers: record.headers, bodyBytes: record.bodyBytes, parts: record.parts, contract: contract,
                                response: response, status: record.status, problem: record.problem))
                    }
                }
            }
        }

        /// Recorded into a journal of its own and read back.
        func readBack(redaction: HeaderRedaction = .standard) -> JournalEntry {
            let journal = RequestJournal(capacity: 4, redaction: redaction)
            lend { journal.record($0) }
            let entries = journal.entries()
            #expect(entries.count == 1)
            return entries[0]
        }
    }

    static func sample(_ change: (inout Sample) -> Void) -> Sample {
        var sample = Sample()
        change(&sample)
        return sample
    }

    /// Bytes that are not UTF-8: a lone continuation byte, an overlong form, 0xFF, a NUL.
    static let notUTF8: [UInt8] = [0x2F, 0x80, 0xC0, 0xAF, 0xFF, 0x00, 0x61]
    static let long = 100_000

    @Test(arguments: [Int64(0), -1, 1_700_000_000_123, .min, .max])
    func receivedAt(_ value: Int64) {
        #expect(Self.sample { $0.record.receivedAt = value }.readBack().receivedAt == value)
    }

    @Test(arguments: ["GET", "", "PURGE", "MÉTHODE", String(repeating: "X", count: long)])
    func method(_ value: String) {
        #expect(Self.sample { $0.record.method = value }.readBack().method == value)
    }

    @Test(arguments: [Array("/".utf8), [], Array("/v1/é/日本?not-a-query".utf8), notUTF8, Array(repeating: UInt8(ascii: "p"), count: long)])
    func path(_ bytes: [UInt8]) {
        #expect(Self.sample { $0.path = bytes }.readBack().path == String(decoding: bytes, as: UTF8.self))
    }

    /// Every length up to 40 bytes, distinct bytes each, back to back: each field ends where its
    /// count says, whatever its size.
    @Test func shortFieldsOfEveryLength() {
        let journal = RequestJournal(capacity: 64)
        let samples = (0...40).map { count in
            Self.sample {
                $0.path = (0..<count).map { UInt8(truncatingIfNeeded: 0x21 + $0) }
                $0.contract = (0..<count).map { UInt8(truncatingIfNeeded: 0x41 + $0 * 3) }
                $0.record.method = String(repeating: "M", count: count)
            }
        }
        for sample in samples { sample.lend { journal.record($0) } }
        let entries = journal.entries()
        #expect(entries.count == samples.count)
        for (entry, sample) in zip(entries, samples) {
            #expect(entry.path == String(decoding: sample.path, as: UTF8.self))
            #expect(entry.contract == sample.contract.map { String(decoding: $0, as: UTF8.self) })
            #expect(entry.method == sample.record.method)
        }
    }

    @Test(arguments: [
        [], [QueryArgument("flag", nil)], [QueryArgument("", "")], [QueryArgument("q", "a b&c=d%"), QueryArgument("ü", "日本")],
        (0..<1_000).map { QueryArgument("k\($0)", $0 % 2 == 0 ? nil : String($0)) },
        [QueryArgument(String(repeating: "n", count: long), String(repeating: "v", count: long))],
    ])
    func query(_ pairs: [QueryArgument]) {
        #expect(Self.sample { $0.record.query = pairs }.readBack().query == JournalEntry.encodeQuery(pairs))
    }

    @Test func aCredentialInTheQueryIsRedactedUnlessSecretsAreKept() {
        let sample = Self.sample { $0.record.query = [QueryArgument("page", "2"), QueryArgument("access_token", "abc"), QueryArgument("api_key", nil)] }
        #expect(sample.readBack().query == "page=2&access_token=[redacted]&api_key")
        #expect(sample.readBack(redaction: .off).query == "page=2&access_token=abc&api_key")
    }

    @Test(
        arguments: [
            [], [("Host", "x")], [("", ""), ("X-Empty", "")], [("X-Ü", "日本 ☕")],
            (0..<1_000).map { ("X-Header-\($0)", String(repeating: "v", count: $0 % 50)) },
            [("X-Exactly-The-Limit", String(repeating: "v", count: HeaderFields.journalValueLimit))],
        ] as [[(String, String)]])
    func headersKeptAsTheyCame(_ pairs: [(String, String)]) {
        var headers = HeaderFields()
        for (name, value) in pairs { headers.append(name: name, value: value) }
        #expect(Self.sample { $0.record.headers = headers }.readBack().headers == headers)
    }

    @Test func headerBytesThatAreNotUTF8AreKeptByteForByte() {
        let packed = Self.packed([(Array("X-Raw".utf8), Self.notUTF8), (Self.notUTF8, Array("v".utf8))])
        let headers = packed.withUnsafeBytes { HeaderFields(packed: $0) }
        #expect(Self.sample { $0.record.headers = headers }.readBack().headers == headers)
    }

    @Test func credentialsAreRedactedAndLongValuesCutAmongOthers() {
        let long = String(repeating: "v", count: 10_000)
        let headers: HeaderFields = [
            ("Host", "x"), ("Authorization", "Bearer abc"), ("Cookie", "session=abc"), ("X-Long", long), ("X-Api-Key", "k"), ("Accept", "*/*"),
        ]
        let entry = Self.sample { $0.record.headers = headers }.readBack()
        #expect(entry.headers.pairs.map(\.name) == ["Host", "Authorization", "Cookie", "X-Long", "X-Api-Key", "Accept"])
        #expect(
            entry.headers.pairs.map(\.value) == [
                "x", "Bearer [redacted]", "[redacted]", String(long.prefix(HeaderFields.journalValueLimit)) + "…[truncated, 10000 bytes]",
                "[redacted]", "*/*",
            ])
        let kept = Self.sample { $0.record.headers = headers }.readBack(redaction: .off).headers.pairs.map(\.value)
        #expect(kept[1] == "Bearer abc" && kept[2] == "session=abc" && kept[4] == "k")
        #expect(kept[3].hasSuffix("…[truncated, 10000 bytes]"), "a long value is cut even with secrets kept")
    }

    @Test(arguments: [0, 1, 987_654, Int.max])
    func bodyBytes(_ value: Int) {
        #expect(Self.sample { $0.record.bodyBytes = value }.readBack().bodyBytes == value)
    }

    @Test(arguments: [
        [],
        [ReceivedPart(name: "note", filename: nil, contentType: nil, bytes: 0, sha256: "")],
        [ReceivedPart(name: "", filename: "", contentType: "", bytes: Int.max, sha256: String(repeating: "ab", count: 32))],
        [ReceivedPart(name: "日本", filename: "a b;\"c\".jpg", contentType: "image/jpeg; q=1", bytes: 3, sha256: "x")],
        (0..<200).map { ReceivedPart(name: "p\($0)", filename: $0 % 2 == 0 ? nil : "f\($0)", contentType: nil, bytes: $0, sha256: "h") },
        [ReceivedPart(name: String(repeating: "n", count: long), filename: String(repeating: "f", count: long), contentType: nil, bytes: 1, sha256: "")],
    ])
    func parts(_ parts: [ReceivedPart]) {
        #expect(Self.sample { $0.record.parts = parts }.readBack().parts == parts)
    }

    static let names: [[UInt8]?] = [nil, [], Array("edit_note".utf8), Array("cafés-über".utf8), notUTF8, Array(repeating: 0x6E, count: long)]

    @Test(arguments: names)
    func contract(_ bytes: [UInt8]?) {
        #expect(Self.sample { $0.contract = bytes }.readBack().contract == bytes.map { String(decoding: $0, as: UTF8.self) })
    }

    @Test(arguments: names)
    func response(_ bytes: [UInt8]?) {
        let entry = Self.sample {
            $0.contract = Array("c".utf8)
            $0.response = bytes
        }.readBack()
        #expect(entry.response == bytes.map { String(decoding: $0, as: UTF8.self) })
        #expect(entry.contract == "c")
    }

    @Test(arguments: [0, 200, 599, 999, -1])
    func status(_ value: Int) {
        #expect(Self.sample { $0.record.status = value }.readBack().status == value)
    }

    @Test(arguments: [nil, "", "body.done: expected bool", "no: ☕\nsecond line", String(repeating: "p", count: long)] as [String?])
    func problem(_ value: String?) {
        #expect(Self.sample { $0.record.problem = value }.readBack().problem == value)
    }

    /// Everything at once, hostile where it can be, next to a bare record: no field spills into
    /// the next, and ids count up.
    @Test func everyFieldTogetherAndIdsInOrder() {
        let full = Self.sample {
            $0.record = RequestRecord(
                receivedAt: .max, method: "", query: [QueryArgument("", nil), QueryArgument("token", "t")],
                headers: [("Authorization", "Basic x"), ("", "")], bodyBytes: Int.max,
                parts: [ReceivedPart(name: "", filename: nil, contentType: "", bytes: 0, sha256: "")], status: 0, problem: "")
            $0.path = Self.notUTF8
            $0.contract = []
            $0.response = Self.notUTF8
        }
        let journal = RequestJournal(capacity: 8)
        for sample in [Sample(), full, Sample()] { sample.lend { journal.record($0) } }
        let entries = journal.entries()
        #expect(entries.map(\.id) == [1, 2, 3])
        #expect(entries[0] == entries[2].with(id: 1))
        let entry = entries[1]
        #expect(entry.receivedAt == .max && entry.method == "" && entry.bodyBytes == .max && entry.status == 0 && entry.problem == "")
        #expect(entry.query == "&token=[redacted]")
        #expect(entry.headers.pairs.map(\.value) == ["Basic [redacted]", ""])
        #expect(entry.path == String(decoding: Self.notUTF8, as: UTF8.self) && entry.contract == "")
        #expect(entry.response == String(decoding: Self.notUTF8, as: UTF8.self))
        #expect(entry.parts == full.record.parts)
    }

    /// The size the journal reserves for a record is exactly what its writer writes.
    @Test func theSizerCountsWhatTheWriterWrites() {
        let samples = [
            Sample(),
            Self.sample {
                $0.record.query = [QueryArgument("a", nil), QueryArgument("b", "ü")]
                $0.record.parts = [ReceivedPart(name: "x", filename: "y", contentType: nil, bytes: 1, sha256: "z")]
                $0.record.problem = "p"
                $0.contract = Self.notUTF8
            },
        ]
        for sample in samples {
            sample.lend { request in
                func write<Sink: RecordSink>(to sink: inout Sink) {
                    JournalRecordLayout.write(
                        id: 7, receivedAt: request.receivedAt, status: request.status, bodyBytes: request.bodyBytes, method: request.method,
                        path: request.path, query: request.query, headers: request.headers, contract: request.contract,
                        response: request.response, parts: request.parts, problem: request.problem, to: &sink)
                }
                do {
                    var sizer = RecordSizer()
                    write(to: &sizer)
                    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: sizer.size + 64, alignment: 16)
                    defer { buffer.deallocate() }
                    var writer = RecordWriter(base: buffer.baseAddress!)
                    write(to: &writer)
                    #expect(writer.size == sizer.size)
                    let entry = JournalRecordLayout.read(UnsafeRawBufferPointer(rebasing: buffer[..<writer.size]))
                    #expect(entry.id == 7 && entry.query == JournalEntry.encodeQuery(sample.record.query))
                }
            }
        }
    }

    /// The bytes one record of `sample` takes in a journal.
    static func size(of sample: Sample) -> Int {
        let journal = RequestJournal(capacity: 4)
        sample.lend { journal.record($0) }
        return journal.bytesHeld
    }

    static func pathSample(_ index: Int) -> Sample {
        sample { $0.path = Array("/items/\(index % 10)".utf8) } // every record the same size
    }

    /// Records that fill the budget exactly are all kept; one byte less and the oldest go first,
    /// the bytes held never pass the budget and the kept ids stay one run ending at the newest.
    @Test(arguments: [0, -1])
    func theBudgetsEdge(slack: Int) {
        let size = Self.size(of: Self.pathSample(0))
        let journal = RequestJournal(capacity: 1_000, maxBytes: 8 * size + slack, shards: 3)
        for index in 0..<8 { Self.pathSample(index).lend { journal.record($0) } }
        let ids = journal.entries().map(\.id)
        if slack == 0 {
            #expect(ids == Array(1...8))
            #expect(journal.bytesHeld == 8 * size)
        } else {
            #expect(ids.last == 8 && ids.first! > 1)
            #expect(ids == Array(ids.first!...8))
            #expect(journal.bytesHeld <= 8 * size + slack)
            #expect(journal.firstID == ids.first)
        }
        for index in 8..<500 {
            Self.pathSample(index).lend { journal.record($0) }
            #expect(journal.bytesHeld <= 8 * size + slack)
        }
        let later = journal.entries().map(\.id)
        #expect(later.last == 500 && later == Array(later.first!...500) && later.count >= 7)
        #expect(journal.evictedCount(after: 0) == later.first! - 1)
    }

    /// A record larger than the whole budget is still kept, alone: the newest request is always there.
    @Test func aRecordLargerThanTheBudgetIsKeptAlone() {
        let journal = RequestJournal(capacity: 100, maxBytes: 4_096)
        for index in 0..<3 { Self.pathSample(index).lend { journal.record($0) } }
        let huge = Self.sample { $0.path = Array(repeating: 0x2F, count: 10_000) }
        huge.lend { journal.record($0) }
        let entries = journal.entries()
        #expect(entries.map(\.id) == [4])
        #expect(entries.first?.path.utf8.count == 10_000)
        Self.pathSample(5).lend { journal.record($0) }
        #expect(journal.entries().map(\.id) == [5])
    }

    /// The count cap is a ring: the newest `capacity` records, whatever their sizes.
    @Test func theRingKeepsTheNewestCapacity() {
        let journal = RequestJournal(capacity: 3, shards: 2)
        for index in 0..<50 {
            Self.sample { $0.path = Array(repeating: 0x61, count: (index * 7_919) % 5_000) }.lend { journal.record($0) }
        }
        #expect(journal.entries().map(\.id) == [48, 49, 50])
        #expect(journal.entries().map(\.path.utf8.count) == [47, 48, 49].map { ($0 * 7_919) % 5_000 })
    }

    /// Headers packed as the server packs them (`HeaderFields`' layout), from raw bytes.
    static func packed(_ fields: [([UInt8], [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            withUnsafeBytes(of: UInt32(name.count)) { bytes += $0 }
            withUnsafeBytes(of: UInt32(value.count)) { bytes += $0 }
            bytes += name + value
        }
        return bytes
    }
}

extension JournalEntry {
    func with(id: Int) -> JournalEntry {
        var copy = self
        copy.id = id
        return copy
    }
}
