import Testing

@testable import MockAPICore

/// `PathTemplate` parses bytes; these check it against a second reading of the grammar written
/// with Swift's `Regex` over Strings, on templates assembled from hostile pieces.
struct PathTemplateParsingTests {
    /// The grammar as the docs state it, one segment at a time, by regular expressions.
    private static func model(_ text: String) -> Result<[PathTemplate.Segment], PathTemplate.ParseError> {
        func failure(_ message: String) -> Result<[PathTemplate.Segment], PathTemplate.ParseError> { .failure(.init(description: message)) }
        guard text.utf8.first == UInt8(ascii: "/") else { return failure("a path must start with '/', found \"\(text)\"") }
        if text.contains("?") { return failure("a path must not contain a query; declare query keys under \"query\"") }
        if text == "/" { return .success([]) }
        var segments: [PathTemplate.Segment] = []
        var names: [String] = []
        // Split on the byte, not on Characters: a combining mark after a slash stays a segment.
        let pieces = text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        for piece in pieces {
            if let express = piece.wholeMatch(of: /:([A-Za-z0-9_]+)/) {
                return failure("\"\(piece)\" is Express-style: write the parameter as {\(express.1)} (or {\(express.1):int})")
            }
            if piece.utf8.first != UInt8(ascii: "{") {
                if piece.utf8.contains(UInt8(ascii: "{")) || piece.utf8.contains(UInt8(ascii: "}")) { return failure("braces inside a literal segment \"\(piece)\"") }
                segments.append(.literal(piece))
                continue
            }
            guard let parameter = piece.utf8.count > 1 ? piece.wholeMatch(of: /\{(.*)\}/.dotMatchesNewlines().matchingSemantics(.unicodeScalar)) : nil else {
                return failure("unclosed parameter \"\(piece)\"")
            }
            let inner = String(parameter.1)
            let name = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard name.wholeMatch(of: /[A-Za-z0-9_]+/) != nil else { return failure("bad parameter name in \"\(piece)\": use letters, digits and '_'") }
            if names.contains(name) { return failure("parameter {\(name)} appears twice") }
            names.append(name)
            var type = PathTemplate.ParameterType.string
            if inner.contains(":") {
                let typeName = String(inner.dropFirst(name.count + 1))
                guard let known = PathTemplate.ParameterType(rawValue: typeName) else {
                    return failure("unknown parameter type \"\(typeName)\" in \"\(piece)\" (known: int, string, path)")
                }
                type = known
            }
            segments.append(.parameter(name: name, type: type))
        }
        return .success(segments)
    }

    private static func parsed(_ text: String) -> Result<[PathTemplate.Segment], PathTemplate.ParseError> {
        do throws(PathTemplate.ParseError) { return .success(try PathTemplate(text).segments) } catch { return .failure(error) }
    }

    /// Pieces a template is built from: good segments, each error's trigger, non-ASCII text
    /// (a combining mark right after a slash or a brace), and bytes the grammar names.
    private static let pieces = [
        "users", "v1", "", "{id}", "{id:int}", "{rest:path}", "{slug:string}", "{ID_2}", ":id", ":", ":1", ":a-b", "{", "}", "{}",
        "{a:}", "{:int}", "{a:int:x}", "{a}b}", "a{b}", "{a}{b}", "{na me}", "{ü}", "{id:INT}", "café", "\u{301}", "{\u{301}}",
        "{id}\u{301}", "😀", "%2F", "a:b", "{id", "id}", "{id:path}x", "?", "a?b", ".", "..",
    ]

    @Test func bytesParseAsTheRegexModelReadsTheGrammar() {
        var generator = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0..<UInt64.max, using: &generator)
        // A fixed walk of xorshift from a random seed, printed on failure to replay it.
        func next(_ bound: Int) -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % UInt64(bound))
        }
        let start = seed
        var templates = ["/", "", "users", "//", "/\u{301}"] + Self.pieces.map { "/" + $0 }
        for _ in 0..<3_000 {
            let count = 1 + next(4)
            let prefix = next(20) == 0 ? "" : "/"
            templates.append(prefix + (0..<count).map { _ in Self.pieces[next(Self.pieces.count)] }.joined(separator: "/"))
        }
        for text in templates {
            #expect(Self.parsed(text) == Self.model(text), "template \(text.debugDescription) (seed \(start))")
        }
    }

    @Test func eachErrorNamesTheSegmentAsWritten() {
        let cases: [(String, String)] = [
            ("users/{id}", "a path must start with '/', found \"users/{id}\""),
            ("/a/{id", "unclosed parameter \"{id\""),
            ("/a/{", "unclosed parameter \"{\""),
            ("/a/{}", "bad parameter name in \"{}\": use letters, digits and '_'"),
            ("/a/{ü}", "bad parameter name in \"{ü}\": use letters, digits and '_'"),
            ("/a/{id}/{id:int}", "parameter {id} appears twice"),
            ("/a/{id:uuid}", "unknown parameter type \"uuid\" in \"{id:uuid}\" (known: int, string, path)"),
            ("/a/b{id}", "braces inside a literal segment \"b{id}\""),
            ("/a/:user_id", "\":user_id\" is Express-style: write the parameter as {user_id} (or {user_id:int})"),
        ]
        for (text, message) in cases {
            #expect(Self.parsed(text) == .failure(.init(description: message)), "\(text)")
        }
    }

    @Test func nonASCIILiteralsKeepTheirBytes() throws {
        let template = try PathTemplate("/café/\u{301}x/😀/{id}")
        #expect(template.segments == [.literal("café"), .literal("\u{301}x"), .literal("😀"), .parameter(name: "id", type: .string)])
        #expect(template.text == "/café/\u{301}x/😀/{id}")
    }
}
