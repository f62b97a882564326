/// A response body with placeholders, split once at load:
///
/// - `{{baseURL}}`: the running server's `http://HOST:PORT`, filled once when it starts (so a
///   fixture's next-page and web URLs point at the mock, even on `--port 0`);
/// - `{{path.NAME}}`: the request's path parameter;
/// - `{{query.NAME}}`: the request's query value (empty when absent);
/// - `{{body.KEY.KEY}}`: a value of the request's JSON or form body by key path (`{{body.items.0.id}}`;
///   `{{body}}` is the whole body); a JSON string that is only the placeholder (`"{{body.id}}"`)
///   becomes the value itself with its type (a number stays a number), `null` when missing;
/// - `{{uuid}}`, `{{now}}`, `{{now.unix}}`, `{{counter}}`: made for each answer (`AnswerValues`).
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
        /// The request body's value at this key path; `[]` for the whole body.
        case body([String])
        case uuid
        case now
        case nowUnix
        case counter

        /// The placeholder as a fixture writes it.
        package var written: String {
            switch self {
            case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
            case .baseURL: "{{baseURL}}"
            case .path(let name): "{{path.\(name)}}"
            case .query(let name): "{{query.\(name)}}"
            case .body(let path): path.isEmpty ? "{{body}}" : "{{body.\(path.joined(separator: "."))}}"
            case .uuid: "{{uuid}}"
            case .now: "{{now}}"
            case .nowUnix: "{{now.unix}}"
            case .counter: "{{counter}}"
            }
        }

        /// Whether the value comes from the request, so escaping must keep it in place.
        package var echoesRequest: Bool {
            switch self {
            case .path, .query, .body: true
            case .literal, .baseURL, .uuid, .now, .nowUnix, .counter: false
            }
        }

        /// Whether the value has a JSON type of its own, which a placeholder that is a whole JSON string keeps.
        var hasJSONType: Bool {
            switch self {
            case .body, .nowUnix, .counter: true
            case .literal, .baseURL, .path, .query, .uuid, .now: false
            }
        }
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
    /// Indexes of the pieces that were a JSON string's whole text (`"id": "{{body.id}}"`), whose
    /// quotes `parse` took out of the literals around them: written as a JSON value, type kept.
    package var wholeValues: Set<Int> = []

    /// Whether the body is rendered for each answer (a request's value, or one made per answer),
    /// rather than once when the server knows its URL.
    package var rendersPerAnswer: Bool {
        pieces.contains { piece in
            switch piece {
            case .literal, .baseURL: false
            default: true
            }
        }
    }

    /// Whether any value comes from the request (its path, query or body).
    package var echoesRequest: Bool { pieces.contains(where: \.echoesRequest) }

    /// Whether any value comes from the request's body, which the server must then keep.
    package var needsBody: Bool {
        pieces.contains { if case .body = $0 { true } else { false } }
    }

    package struct UnknownPlaceholder: Error, Equatable {
        package var name: String
    }

    /// The template in `body`, or nil when it has no placeholder (most bodies).
    package static func parse(_ body: [UInt8], escaping: Escaping) throws(UnknownPlaceholder) -> ResponseTemplate? {
        var pieces: [Piece] = []
        var wholeValues: Set<Int> = []
        var literalStart = 0
        var index = 0
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}"), quote = UInt8(ascii: "\"")
        while index + 1 < body.count {
            guard body[index] == open, body[index + 1] == open else { index += 1; continue }
            var end = index + 2
            while end < body.count, isNameByte(body[end]) || body[end] == UInt8(ascii: "-") && isBodyPath(body[(index + 2)..<end]) { end += 1 }
            guard end > index + 2, end + 1 < body.count, body[end] == close, body[end + 1] == close else { index += 1; continue }
            let name = String(decoding: body[(index + 2)..<end], as: UTF8.self)
            let piece = try Self.piece(named: name)
            var literalEnd = index
            var after = end + 2
            // `"{{body.id}}"` in JSON: the quotes go, and the value is written as JSON in their place
            // (a key, `"{{body.k}}": 1`, stays a string).
            if escaping == .json, piece.hasJSONType, index > literalStart, body[index - 1] == quote, !isEscaped(body, before: index - 1),
                after < body.count, body[after] == quote, !isKey(body, after: after + 1)
            {
                literalEnd = index - 1
                after += 1
                wholeValues.insert(pieces.count + (literalStart < literalEnd ? 1 : 0))
            }
            if literalStart < literalEnd { pieces.append(.literal(Array(body[literalStart..<literalEnd]))) }
            pieces.append(piece)
            index = after
            literalStart = index
        }
        guard !pieces.isEmpty else { return nil }
        if literalStart < body.count { pieces.append(.literal(Array(body[literalStart...]))) }
        var template = ResponseTemplate(pieces: pieces, escaping: escaping)
        template.wholeValues = wholeValues
        return template
    }

    private static func piece(named name: String) throws(UnknownPlaceholder) -> Piece {
        switch name {
        case "baseURL": return .baseURL
        case "body": return .body([])
        case "uuid": return .uuid
        case "now": return .now
        case "now.unix": return .nowUnix
        case "counter": return .counter
        case _ where name.hasPrefix("path.") && name.count > 5: return .path(String(name.dropFirst(5)))
        case _ where name.hasPrefix("query.") && name.count > 6: return .query(String(name.dropFirst(6)))
        case _ where name.hasPrefix("body."):
            let path = name.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else { throw UnknownPlaceholder(name: name) }
            return .body(path)
        default: throw UnknownPlaceholder(name: name)
        }
    }

    /// Whether the quote at `position` is escaped (an odd run of backslashes before it).
    private static func isEscaped(_ body: [UInt8], before position: Int) -> Bool {
        var backslashes = 0
        var scan = position - 1
        while scan >= 0, body[scan] == UInt8(ascii: "\\") {
            backslashes += 1
            scan -= 1
        }
        return backslashes % 2 == 1
    }

    /// Whether the string that closed just before `position` is an object key (a colon follows).
    private static func isKey(_ body: [UInt8], after position: Int) -> Bool {
        var scan = position
        while scan < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[scan]) { scan += 1 }
        return scan < body.count && body[scan] == UInt8(ascii: ":")
    }

    /// `body.` so far: only a body key path may hold `-` (`{{body.first-name}}`), so other
    /// `{{a-b}}` text stays text as before.
    private static func isBodyPath(_ name: ArraySlice<UInt8>) -> Bool {
        name.starts(with: "body.".utf8)
    }

    /// The body for one server and, when the template needs it, one request and answer;
    /// `counting` numbers `{{counter}}` (a session's, or the process's).
    package func render(
        baseURL: String, pathParameters: [String: String] = [:], query: [QueryArgument] = [], body: EchoBody = .none,
        counting: AnswerCounter = .process
    ) -> [UInt8] {
        var out: [UInt8] = []
        // Hashing an index costs more than the check: most templates (JSON ones) percent-encode nothing.
        let encodesAny = !percentEncoded.isEmpty
        let anyWhole = !wholeValues.isEmpty
        var made = AnswerValues(counting: counting)
        // Read (and a JSON body checked) once, by the first placeholder that asks.
        var source: EchoSource?
        for (index, piece) in pieces.enumerated() {
            let encoded = encodesAny && percentEncoded.contains(index)
            switch piece {
            case .literal(let bytes): out += bytes
            case .baseURL: append(baseURL, to: &out)
            case .path(let name): append(pathParameters[name] ?? "", to: &out, percentEncoded: encoded)
            case .query(let name): append(query.first { $0.name == name }?.value ?? "", to: &out, percentEncoded: encoded)
            case .body(let path):
                if source == nil { source = EchoSource(body) }
                let value = source!.value(at: path)
                if anyWhole, wholeValues.contains(index) {
                    value.writeJSON(to: &out)
                } else {
                    append(value.text, to: &out, percentEncoded: encoded)
                }
            case .uuid: append(made.uuid(), to: &out)
            case .now: append(made.now(), to: &out)
            case .nowUnix: append(String(made.unixSeconds()), to: &out)
            case .counter: append(String(made.counter()), to: &out)
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
