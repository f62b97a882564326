import Foundation
import MockAPITestSupport
import Testing

@testable import MockAPICore

/// `JSONScan` may say a document is valid only where `JSONParser.parse` takes it: the parser is
/// the oracle, and every document here, written or mutated, is put to both. (Where the scan is
/// unsure, `JSONParser.check` runs the parser, so its errors are the parser's by construction.)
struct JSONScanTests {
    private func scan(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(JSONScan.isCertainlyValid) }

    private func parses(_ bytes: [UInt8]) -> Bool { (try? JSONParser.parse(bytes)) != nil }

    /// The property itself, with the document in the message when it breaks.
    private func expectScanImpliesParse(_ bytes: [UInt8], _ origin: String) {
        if scan(bytes) {
            #expect(parses(bytes), "the scan took what the parser refuses (\(origin)): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        }
    }

    @Test(arguments: [
        #"{"a":1,"b":[true,false,null,"x\n\u00e9\ud83d\ude00"],"c":-0.5e-3,"d":{},"e":[],"f":"ü€😀"}"#,
        " \t\r\n[0, -0, 1.25, 12E+2, 9223372036854775807, 9223372036854775808, 1e300, 1e-999] ",
        #""just a string""#, "42", "null", #"{"nested":{"nested":{"a":[[[]]]}}}"#,
    ])
    func documentsThatAreValidAreDecided(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(scan(bytes), "\(text)")
        #expect(parses(bytes), "\(text)")
    }

    /// Each is refused by the parser, or taken by it only after a look the scan leaves to it.
    @Test(arguments: [
        "", " ", "{", "[1,]", "[1 2]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, "tru", "nul", "[01]", "-", "1.", "1e", "1e+", ".5",
        #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#, #"{"\u0061":1,"a":2}"#, "{\"é\":1,\"e\u{301}\":2}",
        "1e400", "-1e400", "1e99999", "1" + String(repeating: "0", count: 400), "[\"\u{1}\"]", "\"tab\there\"",
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\x""#, #""\u12g4""#, #""\u12""#,
        "[1]x", "[1] [2]", "\u{feff}[1]", #"{"a":1}}"#, "[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 601),
    ])
    func documentsTheScanIsNotSureOfGoToTheParser(_ text: String) {
        expectScanImpliesParse(Array(text.utf8), "written")
    }

    @Test(
        arguments: [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0x80], [0xFF], [0xC3, 0x5C, 0x6E], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBF, 0xBF],
        ] as [[UInt8]])
    func utf8InStringsIsJudgedAsTheParserJudgesIt(_ sequence: [UInt8]) {
        let bytes = Array("[\"a".utf8) + sequence + Array("b\"]".utf8)
        expectScanImpliesParse(bytes, "UTF-8 \(sequence)")
        let wellFormed = String(validating: sequence, as: UTF8.self) != nil
        #expect(scan(bytes) == wellFormed, "\(sequence)")
    }

    @Test func nestingIsDecidedUpToItsLimitAndLeftToTheParserPastIt() {
        let limit = JSONScan.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let past = "[" + atLimit + "]"
        #expect(scan(Array(atLimit.utf8)))
        #expect(!scan(Array(past.utf8)))
        #expect(parses(Array(past.utf8)))
    }

    @Test func objectsOfManyKeysAreLeftToTheParser() {
        let keys = (0...JSONScan.maximumKeys).map { "\"k\($0)\":\($0)" }
        let many = Array(("{" + keys.joined(separator: ",") + "}").utf8)
        let few = Array(("{" + keys.dropLast().joined(separator: ",") + "}").utf8)
        #expect(scan(few))
        #expect(!scan(many))
        #expect(parses(many))
    }

    /// Every bundled fixture and contract is decided by the scan (so loading builds no tree for
    /// them), and thousands of mutations of them (a byte changed, dropped, doubled, the document
    /// cut short) are never taken where the parser refuses them.
    @Test func bundledFilesAndTheirMutants() throws {
        var generator = SplitMix(seed: 0x6d6f_636b_6170_69)
        let interesting = Array("{}[],:\"\\/ \n0123456789.eE+-tfnulx".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var decided = 0
        var mutants = 0
        for folder in [BundledAPI.fixtures, BundledAPI.contracts] {
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") } ?? []
            #expect(!files.isEmpty)
            for file in files.sorted() {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
                #expect(parses(bytes), "\(file)")
                if folder == BundledAPI.fixtures {
                    #expect(scan(bytes), "the scan leaves the bundled fixture \(file) to the parser")
                }
                if scan(bytes) { decided += 1 }
                for round in 0..<150 {
                    var mutant = bytes
                    let at = Int(generator.next() % UInt64(max(mutant.count, 1)))
                    switch round % 4 {
                    case 0: mutant[at] = interesting[Int(generator.next() % UInt64(interesting.count))]
                    case 1: mutant.remove(at: at)
                    case 2: mutant.insert(mutant[at], at: at)
                    default: mutant.removeLast(mutant.count - at)
                    }
                    expectScanImpliesParse(mutant, "\(file), mutation \(round) at \(at)")
                    mutants += 1
                }
            }
        }
        #expect(decided > 0 && mutants > 1000)
    }

    @Test func checkThrowsWhatParseThrows() {
        for text in [#"{"a":1,"a":2}"#, "[1,]", "1e400", #"{"\u0061":1,"a":2}"#, "[\"\u{1}\"]"] {
            let bytes = Array(text.utf8)
            var parseFailure: JSONParser.Failure?
            var checkFailure: JSONParser.Failure?
            do throws(JSONParser.Failure) { _ = try JSONParser.parse(bytes) } catch { parseFailure = error }
            do throws(JSONParser.Failure) { try JSONParser.check(bytes) } catch { checkFailure = error }
            #expect(parseFailure != nil && checkFailure == parseFailure, "\(text)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing mutant is found again.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
