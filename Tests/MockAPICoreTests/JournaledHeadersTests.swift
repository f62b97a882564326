import MockAPITestSupport
import Testing

@testable import MockAPICore

/// `HeaderFields.forJournal` writes redacted and cut headers straight into packed bytes; here it
/// is held to a plain model of what the journal keeps, built from Strings as the journal's first
/// version did, over random heads.
@Suite struct JournaledHeadersTests {
    static let names = ["Host", "Authorization", "proxy-authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Accept", "User-Agent", "X-Long"]
    static let values = [
        "", " ", "x", "Bearer abc123", "token xyz", "Bearer", " leading", "Be@rer abc", "Digest-2 a b", "a=b; c=d",
        String(repeating: "v", count: HeaderFields.journalValueLimit), String(repeating: "w", count: HeaderFields.journalValueLimit + 1),
        String(repeating: "é", count: 3_000),
    ]

    /// What the journal keeps of one header, from Strings.
    static func model(_ name: String, _ value: String, _ redaction: HeaderRedaction) -> String {
        if redaction.redacts(name) {
            let keepsScheme = ["authorization", "proxy-authorization"].contains(name.lowercased())
            guard keepsScheme, let space = value.utf8.firstIndex(of: UInt8(ascii: " ")) else { return "[redacted]" }
            let scheme = value.utf8[..<space]
            guard !scheme.isEmpty, scheme.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: "-") }) else { return "[redacted]" }
            return String(decoding: scheme, as: UTF8.self) + " [redacted]"
        }
        let bytes = Array(value.utf8)
        guard bytes.count > HeaderFields.journalValueLimit else { return value }
        return String(decoding: bytes[..<HeaderFields.journalValueLimit], as: UTF8.self) + "…[truncated, \(bytes.count) bytes]"
    }

    @Test func redactedAndCutHeadersAreWhatTheModelKeeps() {
        var random = SplitMix64(seed: 4_096)
        var changed = 0
        for _ in 0..<1_500 {
            var headers = HeaderFields()
            var pairs: [(String, String)] = []
            for _ in 0..<Int(random.next() % 6) {
                let pair = (Self.names[Int(random.next() % UInt64(Self.names.count))], Self.values[Int(random.next() % UInt64(Self.values.count))])
                headers.append(name: pair.0, value: pair.1)
                pairs.append(pair)
            }
            for redaction in [HeaderRedaction.standard, .off, HeaderRedaction(extraNames: ["User-Agent"])] {
                let kept = headers.forJournal(redacting: redaction)
                if kept != headers { changed += 1 }
                #expect(kept.pairs.map(\.name) == pairs.map(\.0))
                #expect(kept.pairs.map(\.value) == pairs.map { Self.model($0.0, $0.1, redaction) }, "\(pairs.map(\.0))")
            }
        }
        #expect(changed > 1_000, "most heads have something to redact or cut")
    }
}
