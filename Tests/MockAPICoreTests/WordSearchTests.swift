import MockAPITestSupport
import Testing

@testable import MockAPICore

/// `WordSearch` (the redaction checks' search for words inside header and query names) against
/// the plain definition: some word occurs in the name, comparing bytes `| 0x20`.
@Suite struct WordSearchTests {
    static let words = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "credential"]
    /// Pieces names are made of: the words, their cases and near misses, separators, filler.
    static let pieces = [
        "token", "TOKEN", "Tok", "en", "secret", "Secre", "t", "password", "PassWd", "pass", "word", "apikey", "API_KEY", "api-Key",
        "api", "key", "_", "-", "credential", "Credentia", "x", "X-", "Auth", "a", "s", "p", "c", "\u{7f}", "é",
    ]

    static func naive(_ name: [UInt8], _ words: [String]) -> Bool {
        let folded = name.map { $0 | 0x20 }
        return words.contains { word in
            let wanted = word.utf8.map { $0 | 0x20 }
            guard folded.count >= wanted.count else { return false }
            return (0...(folded.count - wanted.count)).contains { Array(folded[$0..<($0 + wanted.count)]) == wanted }
        }
    }

    @Test func findsExactlyTheNamesThatHoldAWord() {
        let search = WordSearch(Self.words)
        var random = SplitMix64(seed: 1_800)
        var found = 0
        for _ in 0..<5000 {
            let name = Array((0..<Int(random.next() % 5)).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined().utf8)
            let expected = Self.naive(name, Self.words)
            #expect(name.withUnsafeBytes { search.found(in: $0) } == expected, "\(String(decoding: name, as: UTF8.self))")
            if expected { found += 1 }
        }
        // Both answers are well represented, so neither half of the check is empty.
        #expect(found > 1000 && found < 4000, "\(found)")
    }

    @Test func shortNamesAndEmptyOnesHoldNoWord() {
        let search = WordSearch(["token"])
        for name in ["", "t", "tok", "toke"] { #expect(!Array(name.utf8).withUnsafeBytes { search.found(in: $0) }, "\(name)") }
        #expect(Array("xTOKEN".utf8).withUnsafeBytes { search.found(in: $0) })
        #expect(search.shortest == 5)
    }
}
