import Foundation
import MockAPICore
import Yams

/// One file of an OpenAPI document, JSON or YAML, read into a `JSONValue` tree.
///
/// Bounded before anything walks it: at most `maxFileBytes`, aliases and nesting as
/// `YAMLShapeCheck` allows. Problems name the file, and the line and column where YAML gives them.
enum DocumentFileReader {
    /// Larger files are refused before they are read.
    static let maxFileBytes = 100_000_000

    static func read(_ url: URL) throws(ImportError) -> JSONValue {
        let file = url.path
        let data = try InputFile.read(url, maxBytes: maxFileBytes, bound: "100 MB")
        // JSON first, with our own parser (exact integers, fast); YAML reads JSON too, and names the line of a mistake.
        if data.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "{"), let json = try? JSONParser.parse(data) { return json }
        guard let read = String(data: data, encoding: .utf8) else { throw ImportError("\(file): not UTF-8 text") }
        let text = JSONSurrogateEscapes.unescaped(read)
        let parser: Parser
        let root: Node
        do {
            // No type resolution by Yams: `YAMLTreeConverter` decides what a plain scalar is.
            parser = try Parser(yaml: text, resolver: Resolver.basic.appending(.merge))
            root = try parser.singleRoot() ?? Node("")
        } catch {
            throw ImportError(YAMLErrorDescription.describe(error, file: file, text: text))
        }
        return try withExtendedLifetime(parser) { () throws(ImportError) in
            do throws(YAMLShapeCheck.Problem) {
                try YAMLShapeCheck.check(root)
            } catch {
                throw ImportError(YAMLErrorDescription.describe(error, file: file))
            }
            return YAMLTreeConverter.value(of: root)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
