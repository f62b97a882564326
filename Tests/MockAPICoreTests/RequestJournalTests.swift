import Testing

@testable import MockAPICore

struct RequestJournalTests {
    @Test func keepsTheNewestEntriesOldestFirst() {
        let journal = RequestJournal(capacity: 3)
        for i in 1...5 { journal.record(path: "/\(i)") }
        #expect(journal.entries().map(\.path) == ["/3", "/4", "/5"])
        #expect(journal.entries().map(\.id) == [3, 4, 5])
        journal.reset()
        #expect(journal.entries().isEmpty)
        journal.record(path: "/6")
        #expect(journal.entries().map(\.path) == ["/6"])
    }

    @Test func queryFiltersAndPagesForward() throws {
        let journal = RequestJournal(capacity: 100)
        journal.record(path: "/a", contract: "a", response: "default")
        journal.record(path: "/nowhere", status: 404)
        journal.record(path: "/a", status: 422, contract: "a")
        journal.record(path: "/b", contract: "b", response: "default", headers: [("X-Run", "7")])
        journal.record(path: "/a", contract: "a", response: "default")

        #expect(journal.lastID == 5)
        #expect(journal.entries(matching: JournalQuery(since: 3)).map(\.id) == [4, 5])
        #expect(journal.entries(matching: JournalQuery(since: 1, limit: 2)).map(\.id) == [2, 3])
        #expect(journal.entries(matching: JournalQuery(limit: 0)).isEmpty)
        #expect(journal.entries(matching: JournalQuery(contract: "a")).map(\.id) == [1, 3, 5])
        #expect(journal.entries(matching: JournalQuery(unmatched: true)).map(\.id) == [2])
        #expect(journal.entries(matching: JournalQuery(violations: true)).map(\.id) == [3])
        #expect(journal.entries(matching: JournalQuery(header: HTTPField("x-run", "7"))).map(\.id) == [4])

        let parsed = try JournalQuery(pairs: [
            QueryArgument("since", "3"), QueryArgument("limit", "10"), QueryArgument("contract", "a"), QueryArgument("unmatched", nil), QueryArgument("header", "X-Run: 7"),
        ])
        #expect(parsed == JournalQuery(since: 3, limit: 10, contract: "a", unmatched: true, header: HTTPField("X-Run", "7")))
        #expect(throws: JournalQuery.Invalid(message: "since must be a non-negative integer, got \"x\"")) { try JournalQuery(pairs: [QueryArgument("since", "x")]) }
        #expect(throws: JournalQuery.Invalid.self) { try JournalQuery(pairs: [QueryArgument("sort", "id")]) }
        journal.reset()
        journal.record(path: "/c")
        #expect(journal.entries().map(\.id) == [6], "ids are never reused, so a reader's cursor stays valid")
    }

    @Test func credentialsAreRedactedAndLongValuesCutUnlessSecretsAreKept() {
        let long = String(repeating: "x", count: HeaderFields.journalValueLimit + 10)
        let headers: HeaderFields = [("Host", "h"), ("authorization", "token abc123"), ("Cookie", "session=s3cret"), ("X-Long", long)]

        let redacting = RequestJournal(capacity: 10)
        redacting.record(path: "/", headers: headers)
        let stored = redacting.entries()[0].headers
        #expect(stored.pairs.map(\.name) == ["Host", "authorization", "Cookie", "X-Long"])
        #expect(stored.value(for: "Authorization") == "token [redacted]")
        #expect(stored.value(for: "Cookie") == "[redacted]")
        #expect(stored.value(for: "X-Long") == String(repeating: "x", count: HeaderFields.journalValueLimit) + "…[truncated, 4106 bytes]")

        let keeping = RequestJournal(capacity: 10, redaction: .off)
        keeping.record(path: "/", headers: headers)
        #expect(keeping.entries()[0].headers.value(for: "Authorization") == "token abc123")
        #expect(keeping.entries()[0].headers.value(for: "Cookie") == "session=s3cret")

        let plain: HeaderFields = [("Host", "h"), ("Accept", "*/*")]
        #expect(plain.forJournal(keepingSecrets: false) == plain)
    }

    @Test func bytesAreBoundedAsWellAsCount() {
        // One shard with room for about ten 1 KB records: the oldest go, the newest stay.
        let journal = RequestJournal(capacity: 1_000, maxBytes: 10_500, shards: 1)
        for i in 1...100 { journal.record(path: "/\(i)/" + String(repeating: "p", count: 1_000)) }
        let ids = journal.entries().map(\.id)
        #expect(ids.last == 100)
        #expect(ids.count >= 9 && ids.count <= 10, "\(ids)")
        #expect(ids == Array((101 - ids.count)...100))
    }

    @Test func everyFieldReadsBackAsRecorded() {
        let journal = RequestJournal(capacity: 10)
        let parts = [
            ReceivedPart(name: "image", filename: "a.jpg", contentType: "image/jpeg", bytes: 3, sha256: "ab12"),
            ReceivedPart(name: "note", filename: nil, contentType: nil, bytes: 0, sha256: ""),
        ]
        var path = "/v1/projects/12/backers/34"
        path.withUTF8 { bytes in
            journal.record(
                RequestRecord(
                    receivedAt: 1_700_000_000_123, method: "POST", query: [QueryArgument("ids[]", "1"), QueryArgument("flag", nil), QueryArgument("q", "a b")],
                    headers: [("Host", "x"), ("X-Empty", "")], bodyBytes: 512, parts: parts, contract: "upload",
                    response: nil, status: 201, problem: "part.image: required part is missing"),
                path: UnsafeRawBufferPointer(bytes))
        }
        var expected = JournalEntry(
            receivedAt: 1_700_000_000_123, method: "POST", path: path, query: "ids[]=1&flag&q=a%20b",
            headers: [("Host", "x"), ("X-Empty", "")], bodyBytes: 512, parts: parts,
            contract: "upload", response: nil, status: 201, problem: "part.image: required part is missing")
        expected.id = 1
        #expect(journal.entries() == [expected])
    }

    @Test func recordsOfEverySizeWrapAndGrowWithoutLosingTheNewest() {
        // One shard, so every record shares one byte ring: sizes from a few bytes to over the
        // initial 16 KB force both wrapping and growing, in changing order.
        let journal = RequestJournal(capacity: 50, shards: 1)
        var paths: [String] = []
        for i in 0..<2_000 {
            let path = "/\(i)/" + String(repeating: "p", count: (i * 7919) % (i % 97 == 0 ? 20_000 : 600))
            paths.append(path)
            journal.record(path: path)
        }
        #expect(journal.entries().map(\.path) == Array(paths.suffix(50)))
        #expect(journal.entries().map(\.id) == Array(1951...2000))
    }

    @Test func queryIsReencodedAsAClientSendsIt() {
        #expect(JournalEntry.encodeQuery([QueryArgument("ids[]", "1"), QueryArgument("q", "a b&c"), QueryArgument("flag", nil)]) == "ids[]=1&q=a%20b%26c&flag")
    }

    @Test func redactionCoversCredentialNamesAndKeepsOnlyAnAuthorizationScheme() {
        let standard = HeaderRedaction.standard
        for name in [
            "Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token",
            "X-Access-Token", "X-CSRF-Token", "X-Xsrf-Token", "Client-Secret", "X-Password", "X-ApiKey",
            // The word anywhere, any case, after a false start of the same letter.
            "TOKEN", "ttoken", "Sesecret", "ppassword", "aapikey", "a-api-key", "SecretS",
        ] {
            #expect(standard.redacts(name), "\(name)")
        }
        #expect(!standard.redacts("Accept") && !standard.redacts("X-Keyboard") && !standard.redacts("Host"))
        for near in ["X-Toke", "Tokn", "Secre", "Passwor", "Api-Ke", "Apike", "Api_Key", "t", ""] {
            #expect(!standard.redacts(near), "\(near)")
        }
        #expect(HeaderRedaction(extraNames: ["x-signature"]).redacts("X-Signature"))
        #expect(!HeaderRedaction.off.redacts("Authorization"))

        let headers: HeaderFields = [
            ("Authorization", "Bearer abc"), ("Cookie", "session=abc; theme=dark"), ("X-Api-Key", "abc def"),
            ("Authorization", "abc=def ghi"),
        ]
        #expect(
            headers.forJournal(redacting: standard).pairs.map(\.value)
                == ["Bearer [redacted]", "[redacted]", "[redacted]", "[redacted]"])
    }
}

struct RequestJournalThreadTests {
    @Test func entriesFromManyThreadsStayBoundedAndOrdered() async {
        let journal = RequestJournal(capacity: 100, shards: 4)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<500 {
                        journal.record(path: "/\(worker)/\(i)")
                    }
                }
            }
        }
        let entries = journal.entries()
        #expect(entries.count == 100)
        #expect(entries.map(\.id) == Array(1901...2000))
    }
}

extension RequestJournal {
    /// Records a bare request with just a path.
    func record(path: String, status: Int = 200, contract: String? = nil, response: String? = nil, headers: HeaderFields = []) {
        var path = path
        path.withUTF8 { bytes in
            record(RequestRecord(headers: headers, contract: contract, response: response, status: status), path: UnsafeRawBufferPointer(bytes))
        }
    }
}
