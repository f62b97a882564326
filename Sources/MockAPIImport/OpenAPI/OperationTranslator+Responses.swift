import Foundation
import MockAPICore

extension OperationTranslator {
    /// One named response per example of each status, bodies written as fixtures. The first
    /// example of the first 2xx status is `default`; the first of every other status is named
    /// after it (`not_found`), so `Prefer: code=404` and `Prefer: example=not_found` both reach it.
    mutating func translateResponses(into draft: inout ContractDraft) throws(Unexpressible) -> [ImportedSet.Fixture] {
        var outcomes: [(status: Int, response: DocumentNode)] = []
        let written = operation["responses"]?.members ?? []
        // A secured operation without a 401 of its own: its `4XX` or `default` answer is the one a
        // request without credentials gets (rather than a made-up body its schema would not allow).
        var standsFor401 = securityNeed(except: []) != nil && !written.contains { $0.key == "401" }
        var anyOtherStatus: (status: Int, response: DocumentNode)?
        for (code, node) in written {
            guard let response = document.resolve(node) else { continue } // the document warned
            if let status = Int(code), (100...599).contains(status) {
                outcomes.append((status, response))
            } else if code.count == 3, let digit = code.first?.wholeNumberValue, (1...5).contains(digit), code.hasSuffix("XX") || code.hasSuffix("xx") {
                outcomes.append((digit * 100, response))
                if digit == 4, standsFor401 {
                    outcomes.append((401, response))
                    standsFor401 = false
                }
            } else if code == "default" {
                if written.count == 1 {
                    outcomes.append((200, response))
                } else if standsFor401 {
                    outcomes.append((401, response))
                    standsFor401 = false
                } else if let status = [500, 503, 502].first(where: { status in !written.contains { $0.key == String(status) } }) {
                    // Any other status: kept under the name of one it may be, for `Prefer: code=` or
                    // `example=`; last, so it is never the contract's default answer.
                    anyOtherStatus = (status, response)
                    warn("default response", at: node, "response \"default\" (any other status) is kept as a \(status) (\"\(Naming.responseName(forStatus: status))\")")
                } else {
                    warn("default response", at: node, "response \"default\" (any other status) has no status of its own; left out")
                }
            } else {
                warn("unreadable response", at: node, "response \"\(code)\" is not an HTTP status; left out")
            }
        }
        if let anyOtherStatus { outcomes.append(anyOtherStatus) }
        guard !outcomes.isEmpty else { throw Unexpressible("no response", "no response with a status") }
        let defaultStatus = outcomes.first { (200..<300).contains($0.status) }?.status ?? outcomes[0].status

        var fixtures: [ImportedSet.Fixture] = []
        var taken: Set<String> = []
        var haveDefault = false
        for (status, response) in outcomes {
            let headers = responseHeaders(response)
            for (offset, example) in examples(of: response, status: status).enumerated() {
                let name: String
                if status == defaultStatus, !haveDefault {
                    name = "default"
                    haveDefault = true
                    taken.insert(name)
                } else if offset == 0 {
                    name = Naming.unique(Naming.responseName(forStatus: status), in: &taken)
                } else {
                    name = Naming.unique(Naming.snakeCase(example.key), in: &taken)
                }
                var definition = ContractDraft.Response(name: name, status: status)
                definition.headers = headers.map { ContractFile.HeaderField($0.name, $0.value) }
                if let type = example.mediaType, !type.contains("*"),
                    example.body.map({ MediaType.essence(of: MediaType.forFile(named: "x.\($0.fileExtension)")) != type.lowercased() }) ?? true
                {
                    // The document's type where the fixture's extension would say another
                    // (`application/problem+json`, Docker's raw stream) or there is no body at all
                    // (Swagger's `produces` applies to every answer): a client reads the type.
                    definition.headers.append(ContractFile.HeaderField("Content-Type", type))
                }
                if let body = example.body {
                    let file = "\(draft.folder)/\(draft.name)\(name == "default" ? "" : "_" + name).\(body.fileExtension)"
                    definition.fixture = file
                    definition.placeholders = !Self.readAsTemplate(body.bytes)
                    fixtures.append(ImportedSet.Fixture(path: file, bytes: body.bytes))
                    definition.shape = example.shape
                }
                draft.responses.append(definition)
            }
        }
        return fixtures
    }

    struct Example {
        var key: String
        var body: Body?
        /// The media type the document gives the response.
        var mediaType: String?
        /// The JSON body's schema, when the example fits it.
        var shape: JSONValueSchema?
    }

    struct Body {
        var bytes: [UInt8]
        var fileExtension: String
    }

    /// Schema nodes one response's `schema` may take: past them a value is left as any (unchecked,
    /// no variants), so a document of deep, wide schemas does not make megabyte contracts.
    static let shapeNodes = 2_000

    /// Whether the document's example is one of the bodies its schema allows; a warning when not
    /// (the example is left out: served, it would break the schema the client reads).
    private mutating func fits(_ value: JSONValue, _ shape: JSONValueSchema, status: Int, key: String, at content: DocumentNode) -> Bool {
        guard let first = ShapeMismatch.violations(of: value, against: shape).first else { return true }
        warn(
            "example breaks schema", at: content,
            "response \(status) example \"\(key)\" does not fit its schema (\(first.location): \(first.message)); left out")
        return false
    }

    /// Whether mockapi would read a body as a template (`{{item.name}}` in a document's example):
    /// such a response says `"placeholders": false`, so its text is served as written.
    static func readAsTemplate(_ bytes: [UInt8]) -> Bool {
        guard bytes.contains(UInt8(ascii: "{")), String(decoding: bytes, as: UTF8.self).contains("{{") else { return false }
        do throws(ResponseTemplate.UnknownPlaceholder) {
            return try ResponseTemplate.parse(bytes, escaping: .json) != nil
        } catch {
            return true
        }
    }

    /// The response's named examples, else its single example, else one made up from its schema;
    /// one body-less entry for a response without content.
    private mutating func examples(of response: DocumentNode, status: Int) -> [Example] {
        let contents = contents(response["content"])
        guard let (type, content) = contents.first(where: { Self.isJSON($0.type) }) ?? contents.first else {
            return [Example(key: "example", body: nil)]
        }
        var values: [(String, JSONValue)] = []
        for (key, node) in content["examples"]?.members ?? [] {
            guard let example = document.resolve(node), let value = example["value"] ?? example["dataValue"] else {
                warn("example unreadable", at: node, "response \(status) example \"\(key)\" has no inline value (externalValue or an unresolvable $ref); left out")
                continue
            }
            values.append((key, value.value))
        }
        if values.isEmpty, let example = content["example"] { values.append(("example", example.value)) }
        let schema = content["schema"].flatMap { $0.isObject ? $0 : nil }
        let shape = Self.isJSON(type) ? schema.map { reader.responseShape($0, budget: SchemaWalkBudget(nodes: Self.shapeNodes)) } : nil
        if let shape, !values.isEmpty {
            // Only the examples that keep their schema are served: a client (and schemathesis) reads the schema as the promise.
            let kept = values.filter { fits($0.1, shape, status: status, key: $0.0, at: content) }
            if kept.isEmpty, schema != nil {
                warn("example breaks schema", at: content, "response \(status): no example keeps its schema; one is made up from the schema instead")
            }
            values = kept
        }
        if values.isEmpty, Self.isJSON(type), let schema {
            var generator = ExampleGenerator(reader: reader)
            values.append(("example", generator.example(for: schema)))
            for note in generator.notes { warn("bound clamped", at: schema, note) }
            if let cut = generator.cut { warn("example cut", at: schema, "response \(status): the example made up from the schema stops: \(cut)") }
        }
        if values.isEmpty, !Self.isJSON(type), schema.map({ reader.isFile($0) || reader.resolve($0)?.type == "string" }) ?? true {
            // A download (`format: binary`, `type: file`) or text: a small body of its media type.
            let fileExtension = Self.fileExtension(forMediaType: type) ?? Self.binaryExtension(forMediaType: type)
            return [Example(key: "example", body: Body(bytes: Array("example \(type) body\n".utf8), fileExtension: fileExtension), mediaType: type)]
        }
        guard !values.isEmpty else {
            if schema != nil { // a body the document describes but gives no way to make
                warn("no example", at: content, "response \(status) (\(type)) has no example to serve; its body is left empty")
            }
            return [Example(key: "example", body: nil, mediaType: type)]
        }
        return values.map { key, value in
            if Self.isJSON(type) {
                var example = Example(key: key, body: Body(bytes: Array((value.prettySerialized + "\n").utf8), fileExtension: "json"), mediaType: type)
                // A made-up body the shape check would still refuse loses the shape (lint stays clean).
                example.shape = shape.flatMap { ShapeMismatch.violations(of: value, against: $0).isEmpty ? $0 : nil }
                return example
            }
            guard case .string(let text) = value else {
                warn("example unreadable", at: content, "response \(status) example \"\(key)\" (\(type)) is not text; its body is left empty")
                return Example(key: key, body: nil, mediaType: type)
            }
            let fileExtension = Self.fileExtension(forMediaType: type) ?? Self.binaryExtension(forMediaType: type)
            return Example(key: key, body: Body(bytes: Array(text.utf8), fileExtension: fileExtension), mediaType: type)
        }
    }

    /// Response headers the document gives a value for (an example, or a schema example or default).
    private func responseHeaders(_ response: DocumentNode) -> [HTTPField] {
        (response["headers"]?.members ?? []).compactMap { name, node in
            guard name.lowercased() != "content-type", let header = document.resolve(node) else { return nil }
            let schema = header["schema"].flatMap { reader.resolve($0) }
            let namedExample = header["examples"]?.members.first.flatMap { document.resolve($0.node)?["value"]?.value }
            let example = header["example"]?.value ?? namedExample ?? schema?.example ?? schema?.defaultValue
            switch example {
            case .string(let text)?: return HTTPField(name, text)
            case .int(let number)?: return HTTPField(name, String(number))
            case .double(let number)?: return HTTPField(name, String(number))
            case .bool(let flag)?: return HTTPField(name, String(flag))
            default: return nil
            }
        }
    }

    /// The fixture extension that makes mockapi serve a text media type as itself.
    static func fileExtension(forMediaType type: String) -> String? {
        switch type {
        case "text/plain": "txt"
        case "text/html": "html"
        case "text/csv": "csv"
        case "application/xml", "text/xml": "xml"
        case "image/svg+xml": "svg"
        default: nil
        }
    }

    /// The extension for a binary media type mockapi knows, else `bin` (served as application/octet-stream).
    static func binaryExtension(forMediaType type: String) -> String {
        switch type {
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "application/pdf": "pdf"
        case "video/mp4": "mp4"
        default: "bin"
        }
    }
}
