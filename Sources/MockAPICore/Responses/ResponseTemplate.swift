/// A response body with placeholders, split once at load:
///
/// - `{{baseURL}}`: the running server's `http://HOST:PORT`, filled once when it starts (so a
///   fixture's next-page and web URLs point at the mock, even on `--port 0`);
/// - `{{path.NAME}}`: the request's path parameter;
/// - `{{query.NAME}}`: the request's query value (empty when absent).
///
/// Values are escaped for the body's media type (`Escaping`): for a JSON string in JSON, as
/// character references in HTML and XML, so a request cannot put markup (a script) in a page the
/// mock serves. Other `{{…}}` text (with spaces or other characters) is left as it is; a
/// placeholder-shaped name mockapi does not know is a load error, so a typo such as `{{baseUrl}}`
/// cannot ship.
package struct ResponseTemplate: Sendable, Equatable {
    package enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case baseURL
        case path(String)
        case query(String)
    }

    /// How a value is written into the body.
    package enum Escaping: Sendable, Equatable {
        /// For a JSON string: `"` → `\"`, control characters as `\uXXXX`.
        case json
        /// `&`, `<`, `>`, `"` and `'` as character references, for HTML and XML.
        case markup
        /// As it is: plain text and CSV, which no browser runs.
        case none

        /// The escaping a body of this `Content-Type` needs; nil when mockapi knows none that makes
        /// a request's value safe there (JavaScript, CSS, binary, unknown types).
        package static func forMediaType(_ contentType: String?) -> Escaping? {
            guard let contentType else { return nil }
            let essence = MediaType.essence(of: contentType)
            switch essence {
            case _ where essence == "application/json" || essence.hasSuffix("+json"): return .json
            case _ where ["text/html", "application/xml", "text/xml"].contains(essence) || essence.hasSuffix("+xml"): return .markup
            case "text/plain", "text/csv": return Escaping.none
            default: return nil
            }
        }
    }

    package let pieces: [Piece]
    package let escaping: Escaping
    /// Indexes of the pieces in a markup URL's query or fragment (`href="/s?q={{query.q}}"`):
    /// percent-encoded there, so the value stays one parameter. Set by `checkedForMarkup()`.
    package var percentEncoded: Set<Int> = []

    /// Whether rendering needs the request (path or query values), or only the server's URL.
    package var needsRequest: Bool {
        pieces.contains { piece in
            switch piece {
            case .path, .query: true
            case .literal, .baseURL: false
            }
        }
    }

    package struct UnknownPlaceholder: Error, Equatable {
        package var name: String
    }

    /// The template in `body`, or nil when it has no placeholder (most bodies).
    package static func parse(_ body: [UInt8], escaping: Escaping) throws(UnknownPlaceholder) -> ResponseTemplate? {
        var pieces: [Piece] = []
        var literalStart = 0
        var index = 0
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        while index + 1 < body.count {
            guard body[index] == open, body[index + 1] == open else { index += 1; continue }
            var end = index + 2
            while end < body.count, isNameByte(body[end]) { end += 1 }
            guard end > index + 2, end + 1 < body.count, body[end] == close, body[end + 1] == close else { index += 1; continue }
            let name = String(decoding: body[(index + 2)..<end], as: UTF8.self)
            let piece: Piece
            if name == "baseURL" {
                piece = .baseURL
            } else if name.hasPrefix("path."), name.count > 5 {
                piece = .path(String(name.dropFirst(5)))
            } else if name.hasPrefix("query."), name.count > 6 {
                piece = .query(String(name.dropFirst(6)))
            } else {
                throw UnknownPlaceholder(name: name)
            }
            if literalStart < index { pieces.append(.literal(Array(body[literalStart..<index]))) }
            pieces.append(piece)
            index = end + 2
            literalStart = index
        }
        guard !pieces.isEmpty else { return nil }
        if literalStart < body.count { pieces.append(.literal(Array(body[literalStart...]))) }
        return ResponseTemplate(pieces: pieces, escaping: escaping)
    }

    /// The body for one server and, when the template needs it, one request.
    package func render(baseURL: String, pathParameters: [String: String] = [:], query: [QueryArgument] = []) -> [UInt8] {
        var out: [UInt8] = []
        // Hashing an index costs more than the check: most templates (JSON ones) percent-encode nothing.
        let encodesAny = !percentEncoded.isEmpty
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let bytes): out += bytes
            case .baseURL: append(baseURL, to: &out)
            case .path(let name): append(pathParameters[name] ?? "", to: &out, percentEncoded: encodesAny && percentEncoded.contains(index))
            case .query(let name): append(query.first { $0.name == name }?.value ?? "", to: &out, percentEncoded: encodesAny && percentEncoded.contains(index))
            }
        }
        return out
    }

    private func append(_ value: String, to out: inout [UInt8], percentEncoded: Bool = false) {
        if percentEncoded {
            // Every byte but RFC 3986's unreserved ones: no `&`, `#`, quote or `<` is left to escape.
            let hex = Array("0123456789ABCDEF".utf8)
            for byte in value.utf8 {
                if ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                }
            }
            return
        }
        switch escaping {
        case .none:
            out += value.utf8
        case .json:
            var escaped = ""
            JSONValue.writeString(value, to: &escaped)
            out += escaped.utf8.dropFirst().dropLast() // without the quotes: the placeholder sits inside a string
        case .markup:
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "&"): out += "&amp;".utf8
                case UInt8(ascii: "<"): out += "&lt;".utf8
                case UInt8(ascii: ">"): out += "&gt;".utf8
                case UInt8(ascii: "\""): out += "&quot;".utf8
                case UInt8(ascii: "'"): out += "&#39;".utf8
                default: out.append(byte)
                }
            }
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        ASCII.isIdentifier(byte) || byte == UInt8(ascii: ".")
    }
}

extension PathTemplate {
    /// The parameters' values in a path this template matches (`{slug:path}` joins its segments).
    package func parameterValues(in path: String) -> [String: String] {
        let parts =
            path == "/"
            ? []
            : path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        var values: [String: String] = [:]
        let spread = parts.count - segments.count // extra segments a {name:path} takes
        var position = 0
        for segment in segments {
            guard position < parts.count else { break }
            switch segment {
            case .literal:
                position += 1
            case .parameter(let name, .path):
                let taken = max(1, 1 + spread)
                values[name] = parts[position..<min(parts.count, position + taken)].joined(separator: "/")
                position += taken
            case .parameter(let name, _):
                values[name] = parts[position]
                position += 1
            }
        }
        return values
    }
}
