/// A path template such as `/v1/projects/{projectId:int}/backers/{backerId:int}`.
///
/// Literal segments match exactly (an empty one, as in `/v1/users//self`, matches an empty
/// segment); `{name}` matches any non-empty segment, `{name:int}` an optionally signed run of
/// digits, and `{name:path}` one or more segments (`art/illustration`).
package struct PathTemplate: Sendable, Equatable, CustomStringConvertible {
    package enum ParameterType: String, Sendable, CaseIterable {
        case int, string, path

        func accepts(_ segment: Substring) -> Bool {
            switch self {
            case .string, .path: return !segment.isEmpty
            case .int:
                var segment = segment
                return segment.withUTF8 { Self.isInteger($0) }
            }
        }

        /// An optional `-` and digits whose value fits an Int64 (-9223372036854775808 to
        /// 9223372036854775807): 19-digit ids, as snowflake and int64 APIs issue, included.
        static func isInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let negative = bytes.first == UInt8(ascii: "-")
            let digits = negative ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
            guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
            guard digits.count == 19 else { return true }
            // 19 digits: compare with the limit digit by digit (no conversion that could overflow).
            let limit = Array((negative ? "9223372036854775808" : "9223372036854775807").utf8)
            for (digit, most) in zip(digits, limit) where digit != most { return digit < most }
            return true
        }
    }

    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(name: String, type: ParameterType)
    }

    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    package let text: String
    package let segments: [Segment]

    package var description: String { text }

    /// The template with parameter types spelled out where they are not the default (`{id:int}`).
    static func spelled(_ name: String, _ type: ParameterType) -> String {
        type == .string ? "{\(name)}" : "{\(name):\(type.rawValue)}"
    }

    /// Names of the parameters, in path order.
    package var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name, _) = $0 { name } else { nil } }
    }

    package init(_ text: String) throws(ParseError) {
        // Parsed as bytes: Character-wise `split` and `hasPrefix` cost ~28,000 instructions a
        // template, a seventh of loading 10,000 contracts. Every byte the grammar names is ASCII,
        // so a UTF-8 sequence is never split inside.
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw ParseError(description: "a path must start with '/', found \"\(text)\"") }
        if bytes.contains(UInt8(ascii: "?")) { throw ParseError(description: "a path must not contain a query; declare query keys under \"query\"") }
        self.text = text
        var segments: [Segment] = []
        if bytes.count > 1 {
            segments.reserveCapacity(bytes.count { $0 == UInt8(ascii: "/") })
            var start = 1
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
                segments.append(try Self.segment(bytes[start..<end], after: segments))
                start = end + 1
            }
        }
        self.segments = segments
    }

    /// One segment of a template (the bytes between two slashes), checked against those before it.
    private static func segment(_ piece: ArraySlice<UInt8>, after earlier: [Segment]) throws(ParseError) -> Segment {
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        // Express and Rails write parameters `:id`; here that would be a literal colon, never matched by a real id.
        if piece.first == UInt8(ascii: ":"), piece.count > 1, piece.dropFirst().allSatisfy(ASCII.isIdentifier) {
            let name = text(piece.dropFirst())
            throw ParseError(description: "\"\(text(piece))\" is Express-style: write the parameter as {\(name)} (or {\(name):int})")
        }
        guard piece.first == UInt8(ascii: "{") else {
            guard !piece.contains(UInt8(ascii: "{")), !piece.contains(UInt8(ascii: "}")) else {
                throw ParseError(description: "braces inside a literal segment \"\(text(piece))\"")
            }
            return .literal(text(piece))
        }
        guard piece.count > 1, piece.last == UInt8(ascii: "}") else { throw ParseError(description: "unclosed parameter \"\(text(piece))\"") }
        let inner = piece.dropFirst().dropLast()
        let colon = inner.firstIndex(of: UInt8(ascii: ":"))
        let nameBytes = inner[..<(colon ?? inner.endIndex)]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy(ASCII.isIdentifier) else {
            throw ParseError(description: "bad parameter name in \"\(text(piece))\": use letters, digits and '_'")
        }
        let name = text(nameBytes)
        for case .parameter(let seen, _) in earlier where seen == name { throw ParseError(description: "parameter {\(name)} appears twice") }
        guard let colon else { return .parameter(name: name, type: .string) }
        let typeName = text(inner[(colon + 1)...])
        guard let type = ParameterType(rawValue: typeName) else {
            throw ParseError(description: "unknown parameter type \"\(typeName)\" in \"\(text(piece))\" (known: int, string, path)")
        }
        return .parameter(name: name, type: type)
    }

    /// The shape two templates share when they would match the same requests:
    /// literals kept, parameter names dropped.
    var shape: String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(_, let type): "{:\(type.rawValue)}"
                }
            }.joined(separator: "/")
    }
}
