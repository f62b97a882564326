import Foundation
import Testing

@testable import MockAPICore

/// The fixture check's scan (`JSONScan`) against documents nobody here wrote: the public JSON
/// documents of the corpus, and objects cut from them as their bytes stand (most are small enough
/// for the scan to decide), each also with a byte changed, are taken by the scan only where
/// `JSONParser.parse` takes them too.
struct CorpusJSONScanTests {
    @Test(.needsCorpus) func publicDocumentsTheirObjectsAndMutants() throws {
        let folder = try OpenAPICorpus.require()
        var generator = SystemRandomNumberGenerator()
        let documents = OpenAPICorpus.documents.filter { $0.hasSuffix(".json") }
        #expect(documents.count >= 5)
        var decided = 0
        for name in documents {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(parses(bytes), "\(name)")
            #expect(!scan(bytes) || parses(bytes), "\(name)")
            let opening = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") }
            for _ in 0..<60 {
                guard let start = opening.randomElement(using: &generator), let object = Self.object(in: bytes, at: start) else { continue }
                #expect(!scan(object) || parses(object), "\(name) at byte \(start)")
                guard scan(object) else { continue }
                decided += 1
                for _ in 0..<4 {
                    var mutant = object
                    let at = Int.random(in: 0..<mutant.count, using: &generator)
                    mutant[at] = Array("{}[],:\"\\ 0.e-tn".utf8).randomElement(using: &generator)!
                    #expect(!scan(mutant) || parses(mutant), "\(name), object at \(start), byte \(at) changed to \(mutant[at])")
                }
            }
        }
        #expect(decided > 50, "the scan decided only \(decided) objects cut from the corpus")
    }

    /// The object that opens at `start` (a `{` outside any string), up to its closing brace, when
    /// it is at most 32 KB.
    private static func object(in bytes: [UInt8], at start: Int) -> [UInt8]? {
        var depth = 0
        var index = start
        var inString = false
        while index < bytes.count, index - start < 32_768 {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return Array(bytes[start...index]) }
            }
            index += 1
        }
        return nil
    }

    private func scan(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(JSONScan.isCertainlyValid) }
    private func parses(_ bytes: [UInt8]) -> Bool { (try? JSONParser.parse(bytes)) != nil }
}
