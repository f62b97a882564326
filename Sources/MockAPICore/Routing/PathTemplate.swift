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
        guard text.hasPrefix("/") else { throw ParseError(description: "a path must start with '/', found \"\(text)\"") }
        if text.utf8.contains(UInt8(ascii: "?")) { throw ParseError(description: "a path must not contain a query; declare query keys under \"query\"") }
        self.text = text
        var segments: [Segment] = []
        var seen: Set<String> = []
        // Split on bytes: `String.split` walks grapheme clusters, which loading 10,000 contracts felt.
        let pieces =
            text == "/"
            ? []
            : text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                .map { Substring($0) }
        for piece in pieces {
            // Express and Rails write parameters `:id`; here that would be a literal colon, never matched by a real id.
            if piece.hasPrefix(":"), piece.count > 1, piece.dropFirst().utf8.allSatisfy({ ASCII.isIdentifier($0) }) {
                throw ParseError(description: "\"\(piece)\" is Express-style: write the parameter as {\(piece.dropFirst())} (or {\(piece.dropFirst()):int})")
            }
            if piece.hasPrefix("{") {
                guard piece.hasSuffix("}") else { throw ParseError(description: "unclosed parameter \"\(piece)\"") }
                let inner = piece.dropFirst().dropLast()
                let parts = inner.utf8.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false).map { Substring($0) }
                let name = String(parts[0])
                guard !name.isEmpty, name.utf8.allSatisfy({ ASCII.isIdentifier($0) }) else {
                    throw ParseError(description: "bad parameter name in \"\(piece)\": use letters, digits and '_'")
                }
                guard seen.insert(name).inserted else { throw ParseError(description: "parameter {\(name)} appears twice") }
                var type = ParameterType.string
                if parts.count == 2 {
                    guard let parsed = ParameterType(rawValue: String(parts[1])) else {
                        throw ParseError(description: "unknown parameter type \"\(parts[1])\" in \"\(piece)\" (known: int, string, path)")
                    }
                    type = parsed
                }
                segments.append(.parameter(name: name, type: type))
            } else {
                guard !piece.utf8.contains(UInt8(ascii: "{")), !piece.utf8.contains(UInt8(ascii: "}")) else { throw ParseError(description: "braces inside a literal segment \"\(piece)\"") }
                segments.append(.literal(String(piece)))
            }
        }
        self.segments = segments
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
