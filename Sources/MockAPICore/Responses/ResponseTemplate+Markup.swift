/// Where each request placeholder sits in an HTML or XML body, worked out once at load.
///
/// Character references keep a value inside element text and inside a quoted attribute value,
/// and nowhere else: an unquoted value ends at a space (`title={{query.q}}` with
/// `a onfocus=alert(1) autofocus`), and a browser runs `<script>`, `<style>`, `on…` and `style`
/// attributes as code after it has decoded the references. Those contexts are load errors. A URL
/// attribute (`href`, `src`, …) is escaped only once the fixture's own text before the first
/// placeholder has fixed the scheme and the origin (`/`, `./`, `?`, `#`, `https://host/`,
/// `{{baseURL}}/`): rewriting a request's `javascript:` or `//evil.example/x.js` at run time
/// would need a list of safe schemes and hosts for each element (a `<script src>` on another
/// host is as bad as `javascript:`), and would answer something else than the fixture says.
/// In a URL's query or fragment the value is percent-encoded, so it stays one parameter.
extension ResponseTemplate {
    /// A request placeholder in a markup context that escaping cannot make safe.
    package struct MarkupRefusal: Error, Equatable {
        /// `{{query.q}}`.
        package var placeholder: String
        /// 1-based line of the body it is on.
        package var line: Int
        /// Why, and how to fix it.
        package var reason: String

        package var message: String { "\(placeholder) on line \(line) \(reason)" }
    }

    /// The template with each request value's context decided, or the placeholders that sit
    /// where no escaping is safe.
    package func checkedForMarkup() -> Result<ResponseTemplate, MarkupRefusals> {
        // The same body read as HTML and as XML: a placeholder must be safe in both readings, since
        // a `text/html` page may hold `<svg>` (XML's rules inside) and the two disagree on
        // `<title>` and `<textarea>` (`<title><a title="</title><p title={{query.q}}>">`).
        var html = MarkupScanner(template: self, textElementsHoldText: true)
        html.run()
        var xml = MarkupScanner(template: self, textElementsHoldText: false)
        xml.run()
        let refusals = html.refusals + xml.refusals.filter { !html.refusals.contains($0) }
        guard refusals.isEmpty else { return .failure(MarkupRefusals(all: refusals)) }
        var checked = self
        checked.percentEncoded = html.percentEncoded.union(xml.percentEncoded)
        return .success(checked)
    }

    package struct MarkupRefusals: Error, Equatable {
        package var all: [MarkupRefusal]
    }
}

/// A small HTML/XML tokenizer over the template's text (placeholders as one opaque byte each):
/// enough states to tell text, tags, attribute names and values, raw-text elements, comments,
/// CDATA and declarations apart, as a browser's would at the placeholder's position.
private struct MarkupScanner {
    private enum State {
        case data
        case tagOpen
        case endTagOpen
        case tagName
        case beforeAttributeName
        case attributeName
        case afterAttributeName
        case beforeAttributeValue
        case quotedValue(UInt8)
        case unquotedValue
        /// Inside an element whose content is not markup, until `</name`; `code` for script and style.
        case rawText(name: [UInt8], code: Bool)
        case comment
        case cdata
        /// `<!DOCTYPE …>`, `<?xml …?>`, `<!…>`: until `>`.
        case declaration
    }

    /// A position in the flattened text.
    private enum Unit {
        case byte(UInt8)
        /// A request value (`{{path.…}}`, `{{query.…}}`, `{{body.…}}`) at `pieces[index]`.
        case placeholder(Int)
    }

    let template: ResponseTemplate
    /// HTML's reading (`<title>`, `<textarea>`: text up to their end tag) or XML's, also that
    /// of an HTML `<svg>` (markup there).
    let textElementsHoldText: Bool
    private var units: [Unit] = []
    private var lines: [Int] = []
    private var state = State.data
    private var tag: [UInt8] = []
    private var isEndTag = false
    private var attribute: [UInt8] = []
    /// The current attribute value's fixture text so far (placeholders left out).
    private var valuePrefix: [UInt8] = []
    private var valueHasPlaceholder = false
    private(set) var refusals: [ResponseTemplate.MarkupRefusal] = []
    private(set) var percentEncoded: Set<Int> = []

    init(template: ResponseTemplate, textElementsHoldText: Bool) {
        self.template = template
        self.textElementsHoldText = textElementsHoldText
        var line = 1
        for (index, piece) in template.pieces.enumerated() {
            switch piece {
            case .literal(let bytes):
                for byte in bytes {
                    units.append(.byte(byte))
                    lines.append(line)
                    if byte == UInt8(ascii: "\n") { line += 1 }
                }
            case .baseURL:
                // The server's own `http://HOST:PORT`: text the fixture's author chose to put there.
                for byte in "http://mockapi.invalid".utf8 {
                    units.append(.byte(byte))
                    lines.append(line)
                }
            case .uuid, .now, .nowUnix, .counter:
                // Made by the server, of hex digits, dashes, digits and colons: as safe as text.
                for byte in Self.sample(of: piece).utf8 {
                    units.append(.byte(byte))
                    lines.append(line)
                }
            case .path, .query, .body:
                units.append(.placeholder(index))
                lines.append(line)
            }
        }
    }

    mutating func run() {
        var position = 0
        while position < units.count {
            switch units[position] {
            case .placeholder(let index): placeholder(index, at: position)
            case .byte(let byte): position = step(byte, at: position)
            }
            position += 1
        }
    }

    // MARK: Placeholders

    private mutating func placeholder(_ index: Int, at position: Int) {
        switch state {
        case .data:
            return
        case .rawText(_, false):
            return
        case .rawText(let name, true):
            let element = String(decoding: name, as: UTF8.self)
            refuse(index, at: position, "is inside <\(element)>, which a browser runs as code whatever the escaping; move the value out of <\(element)> into element text or a quoted data-* attribute")
        case .comment:
            refuse(index, at: position, "is inside a comment, which no page shows and old browsers read as markup (<!--[if IE]>); move it out of the comment")
        case .cdata:
            refuse(index, at: position, "is inside a CDATA section, where character references are not decoded; put it in element text outside CDATA")
        case .declaration:
            refuse(index, at: position, "is inside a declaration or processing instruction (<!…>, <?…?>); put it in element text or a quoted attribute value")
        case .tagOpen, .endTagOpen, .tagName:
            state = .tagName
            tag.append(UInt8(ascii: "x"))
            refuse(index, at: position, "is in a tag name, where a request could write any element; put it in element text or a quoted attribute value")
        case .beforeAttributeName, .attributeName, .afterAttributeName:
            state = .attributeName
            attribute.append(UInt8(ascii: "x"))
            refuse(index, at: position, "is where an attribute name goes, so a request could add any attribute (onfocus=…); put it inside a quoted attribute value")
        case .beforeAttributeValue, .unquotedValue:
            state = .unquotedValue
            let name = String(decoding: attribute, as: UTF8.self)
            refuse(index, at: position, "is in the unquoted value of \(name)=, which a space in the value would end (a onfocus=alert(1) autofocus); quote the attribute: \(name)=\"\(display(index))\"")
        case .quotedValue:
            quotedValuePlaceholder(index, at: position)
        }
    }

    private mutating func quotedValuePlaceholder(_ index: Int, at position: Int) {
        let name = String(decoding: attribute, as: UTF8.self)
        let element = String(decoding: tag, as: UTF8.self)
        // `svg:set`, `x:onload`, `foo:href` (any prefix bound to XLink): classified by the local name.
        let local = Self.localName(attribute)
        defer { valueHasPlaceholder = true }
        if Self.animationElements.contains(Self.localName(tag)) {
            refuse(index, at: position, "is in an attribute of <\(element)>, which can set any attribute of another element (an href to javascript:); write the value out in the fixture")
        } else if local.hasPrefix("on") {
            refuse(index, at: position, "is in \(name)=, which a browser runs as JavaScript after decoding the escaping; pass the value in a quoted data-* attribute and read it from there")
        } else if local == "style" {
            refuse(index, at: position, "is in style=, which a browser reads as CSS after decoding the escaping; pass the value in a quoted data-* attribute or element text")
        } else if local == "srcdoc" {
            refuse(index, at: position, "is in srcdoc=, which a browser reads as a whole HTML document after decoding the escaping; serve that document from its own contract and link to it")
        } else if Self.urlAttributes.contains(name) || Self.urlAttributes.contains(local) {
            if !valueHasPlaceholder, let why = Self.originNotFixed(by: valuePrefix) {
                refuse(
                    index, at: position,
                    "starts the URL in \(name)= \(why), so a request could make it javascript:, data: or another host's //evil.example/x.js; start the value with a fixed path or origin: \(name)=\"/\(display(index))\", \"./\(display(index))\" or \"{{baseURL}}/\(display(index))\""
                )
            } else if valuePrefix.contains(UInt8(ascii: "?")) || valuePrefix.contains(UInt8(ascii: "#")) {
                percentEncoded.insert(index)
            }
        }
    }

    /// Nil when the fixture's text before a URL's first placeholder fixes its scheme and origin;
    /// otherwise why it does not. Browsers drop tabs and newlines anywhere in a URL and leading
    /// spaces and control characters, so those are dropped first.
    static func originNotFixed(by raw: [UInt8]) -> String? {
        var prefix = raw.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        while let first = prefix.first, first <= 0x20 { prefix.removeFirst() }
        if prefix.contains(UInt8(ascii: "&")) { return "after a character reference, which mockapi does not decode to check" }
        guard let first = prefix.first else { return "as its first text" }
        let slash = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }
        if slash(first) {
            return prefix.count >= 2 && !slash(prefix[1]) ? nil : "after only \(String(decoding: prefix, as: UTF8.self)) (a request's /evil.example makes it another host)"
        }
        if first == UInt8(ascii: "?") || first == UInt8(ascii: "#") { return nil }
        guard let delimiter = prefix.firstIndex(where: { slash($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return "after \(String(decoding: prefix, as: UTF8.self)), which does not yet fix the scheme"
        }
        guard prefix[delimiter] == UInt8(ascii: ":") else { return nil } // a relative path
        let scheme = prefix[..<delimiter]
        let isScheme =
            scheme.first.map { ASCII.isLetter($0) } == true
            && scheme.allSatisfy { ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        guard isScheme else { return nil } // not a scheme: a relative path
        let name = String(decoding: scheme, as: UTF8.self).lowercased()
        if ["javascript", "vbscript", "data"].contains(name) { return "inside a \(name): URL, whose text is code or a document" }
        guard ["http", "https", "ws", "wss", "ftp", "file"].contains(name) else { return nil } // mailto:, tel:, …: no origin to take
        let rest = prefix[(delimiter + 1)...]
        guard rest.count >= 2, slash(rest[rest.startIndex]), slash(rest[rest.startIndex + 1]) else {
            return "after \(String(decoding: prefix, as: UTF8.self)), before the host"
        }
        let afterSlashes = rest.dropFirst(2)
        guard let end = afterSlashes.firstIndex(where: { slash($0) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }), end > afterSlashes.startIndex else {
            return "in the host (after \(String(decoding: prefix, as: UTF8.self)))"
        }
        return nil
    }

    private mutating func refuse(_ index: Int, at position: Int, _ reason: String) {
        refusals.append(.init(placeholder: display(index), line: lines[position], reason: reason))
    }

    private func display(_ index: Int) -> String {
        template.pieces[index].written
    }

    /// What a value the server makes looks like, for the scan.
    private static func sample(of piece: ResponseTemplate.Piece) -> String {
        switch piece {
        case .uuid: "00000000-0000-4000-8000-000000000000"
        case .now: "2026-01-01T00:00:00Z"
        default: "1"
        }
    }

    // MARK: Tokenizer

    /// Consumes `byte` at `position`; returns the last position consumed (lookahead for `<!--`, …).
    private mutating func step(_ byte: UInt8, at position: Int) -> Int {
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        switch state {
        case .data:
            if byte == lt { state = .tagOpen }
        case .tagOpen:
            if ASCII.isLetter(byte) {
                startTag(byte, end: false)
            } else if byte == slash {
                state = .endTagOpen
            } else if byte == UInt8(ascii: "!") {
                if matches("--", at: position + 1) {
                    state = .comment
                    return position + 2
                }
                if matches("[CDATA[", at: position + 1) {
                    state = .cdata
                    return position + 7
                }
                state = .declaration
            } else if byte == UInt8(ascii: "?") {
                state = .declaration
            } else {
                state = .data
                return step(byte, at: position)
            }
        case .endTagOpen:
            if ASCII.isLetter(byte) {
                startTag(byte, end: true)
            } else if byte == gt {
                state = .data
            } else {
                state = .declaration // `</ …>` is a bogus comment
            }
        case .tagName:
            if isSpace(byte) {
                state = .beforeAttributeName
            } else if byte == slash {
                state = .beforeAttributeName
            } else if byte == gt {
                endOfTag()
            } else {
                tag.append(ASCII.lowercased(byte))
            }
        case .beforeAttributeName:
            if isSpace(byte) || byte == slash { break }
            if byte == gt { endOfTag() } else { startAttribute(byte) }
        case .attributeName:
            if isSpace(byte) {
                state = .afterAttributeName
            } else if byte == slash {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == gt {
                endOfTag()
            } else {
                attribute.append(ASCII.lowercased(byte))
            }
        case .afterAttributeName:
            if isSpace(byte) { break }
            if byte == slash {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == gt {
                endOfTag()
            } else {
                startAttribute(byte)
            }
        case .beforeAttributeValue:
            if isSpace(byte) { break }
            valuePrefix = []
            valueHasPlaceholder = false
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .quotedValue(byte)
            } else if byte == gt {
                endOfTag()
            } else {
                state = .unquotedValue
            }
        case .quotedValue(let quote):
            if byte == quote {
                state = .beforeAttributeName
            } else {
                valuePrefix.append(byte)
            }
        case .unquotedValue:
            if isSpace(byte) {
                state = .beforeAttributeName
            } else if byte == gt {
                endOfTag()
            }
        case .rawText(let name, _):
            if byte == lt, matches("/", at: position + 1), matchesName(name, at: position + 2) {
                let after = position + 2 + name.count
                if after >= units.count || isTagEnd(units[after]) {
                    tag = name
                    isEndTag = true
                    state = .tagName
                    return after - 1
                }
            }

        case .comment:
            if byte == UInt8(ascii: "-"), matches("->", at: position + 1) {
                state = .data
                return position + 2
            }
        case .cdata:
            if byte == UInt8(ascii: "]"), matches("]>", at: position + 1) {
                state = .data
                return position + 2
            }
        case .declaration:
            if byte == gt { state = .data }
        }
        return position
    }

    private mutating func startTag(_ byte: UInt8, end: Bool) {
        tag = [ASCII.lowercased(byte)]
        isEndTag = end
        state = .tagName
    }

    private mutating func startAttribute(_ byte: UInt8) {
        attribute = [ASCII.lowercased(byte)]
        state = .attributeName
    }

    private mutating func endOfTag() {
        let name = Self.localName(tag)
        if !isEndTag, Self.codeElements.contains(name) {
            state = .rawText(name: tag, code: true)
        } else if !isEndTag, textElementsHoldText, Self.textElements.contains(name) {
            state = .rawText(name: tag, code: false)
        } else {
            state = .data
        }
    }

    private func matches(_ text: String, at position: Int) -> Bool {
        var position = position
        for expected in text.utf8 {
            guard position < units.count, case .byte(let byte) = units[position], byte == expected else { return false }
            position += 1
        }
        return true
    }

    private func matchesName(_ name: [UInt8], at position: Int) -> Bool {
        guard position + name.count <= units.count else { return false }
        for (offset, expected) in name.enumerated() {
            guard case .byte(let byte) = units[position + offset], ASCII.lowercased(byte) == expected else { return false }
        }
        return true
    }

    private func isTagEnd(_ unit: Unit) -> Bool {
        guard case .byte(let byte) = unit else { return false }
        return isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    /// `script` for `svg:script`: the name without its namespace prefix.
    private static func localName(_ name: [UInt8]) -> String {
        String(decoding: name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? [], as: UTF8.self)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Content a browser runs: no escaping keeps a value in it as data.
    static let codeElements: Set<String> = ["script", "style"]
    /// Content that is text up to its end tag, not markup: escaped values are safe there.
    static let textElements: Set<String> = ["title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"]
    /// SVG animation, which sets another attribute (an `href`) to its `to`, `from`, `by` or `values`.
    static let animationElements: Set<String> = ["set", "animate", "animatemotion", "animatetransform"]
    /// Attributes whose value a browser follows as a URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "xlink:href", "xml:base", "cite", "background", "poster", "data", "codebase",
        "longdesc", "usemap", "manifest", "ping", "icon", "lowsrc", "dynsrc", "profile", "archive", "classid", "srcset",
        "imagesrcset", "itemtype", "itemid",
    ]
}
