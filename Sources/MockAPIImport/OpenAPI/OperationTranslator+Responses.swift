import MockAPICore
import OpenAPIKit

extension OperationTranslator {
    /// One named response per example of each status, bodies written as fixtures. The first
    /// example of the first 2xx status is `default`; the first of every other status is named
    /// after it (`not_found`), so `Prefer: code=404` and `Prefer: example=not_found` both reach it.
    mutating func translateResponses(into draft: inout ContractDraft) throws(Unexpressible) -> [ImportedSet.Fixture] {
        var outcomes: [(status: Int, response: OpenAPI.Response)] = []
        for (code, either) in operation.responses {
            guard let response = try? components.lookup(either) else {
                warnings.append("response \(code.rawValue): reference cannot be resolved; left out")
                continue
            }
            switch code.value {
            case .status(let status): outcomes.append((status, response))
            case .range(let range): outcomes.append(((Int(range.rawValue.prefix(1)) ?? 5) * 100, response))
            case .default:
                if operation.responses.count == 1 { outcomes.append((200, response)) } else {
                    warnings.append("response \"default\" (any other status) has no status of its own; left out")
                }
            }
        }
        guard !outcomes.isEmpty else { throw Unexpressible("no response with a status") }
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
                if let body = example.body {
                    let file = "\(draft.folder)/\(draft.name)\(name == "default" ? "" : "_" + name).\(body.fileExtension)"
                    definition.fixture = file
                    fixtures.append(ImportedSet.Fixture(path: file, bytes: body.bytes))
                }
                draft.responses.append(definition)
            }
        }
        return fixtures
    }

    struct Example {
        var key: String
        var body: Body?
    }

    struct Body {
        var bytes: [UInt8]
        var fileExtension: String
    }

    /// The response's named examples, else its single example, else one made up from its schema;
    /// one body-less entry for a response without content.
    private mutating func examples(of response: OpenAPI.Response, status: Int) -> [Example] {
        let contents = contents(response.content)
        guard let (type, content) = contents.first(where: { Self.isJSON($0.type) }) ?? contents.first else {
            return [Example(key: "example", body: nil)]
        }
        var values: [(String, JSONValue)] = []
        for (key, either) in content.examples ?? [:] {
            guard let example = try? components.lookup(either), let value = example.dataOrLegacyValue else {
                warnings.append("response \(status) example \"\(key)\" has no inline value (externalValue or an unresolvable $ref); left out")
                continue
            }
            values.append((key, JSONValue(value)))
        }
        if values.isEmpty, let example = content.example { values.append(("example", JSONValue(example))) }
        if values.isEmpty, Self.isJSON(type), let schema = content.schema {
            var generator = ExampleGenerator(reader: reader)
            values.append(("example", generator.example(for: schema)))
            if let cut = generator.cut { warnings.append("response \(status): the example made up from the schema stops: \(cut)") }
        }
        guard !values.isEmpty else {
            warnings.append("response \(status) (\(type)) has no example to serve; its body is left empty")
            return [Example(key: "example", body: nil)]
        }
        return values.map { key, value in
            if Self.isJSON(type) {
                return Example(key: key, body: Body(bytes: Array((value.prettySerialized + "\n").utf8), fileExtension: "json"))
            }
            guard case .string(let text) = value, let fileExtension = Self.fileExtension(forMediaType: type) else {
                warnings.append("response \(status) example \"\(key)\" (\(type)) cannot be written as a fixture; its body is left empty")
                return Example(key: key, body: nil)
            }
            return Example(key: key, body: Body(bytes: Array(text.utf8), fileExtension: fileExtension))
        }
    }

    /// Response headers the document gives a value for (an example, or a schema example or default).
    private func responseHeaders(_ response: OpenAPI.Response) -> [(name: String, value: String)] {
        (response.headers ?? [:]).compactMap { name, either in
            guard name.lowercased() != "content-type", let header = try? components.lookup(either),
                  case .a(let context) = header.schemaOrContent else { return nil }
            let schema = reader.resolve(Self.schema(context.schema))
            let example = context.example ?? context.examples?.first.flatMap { try? components.lookup($0.value) }?.dataOrLegacyValue
                ?? schema?.examples.first ?? schema?.defaultValue
            switch example.map(JSONValue.init) {
            case .string(let text)?: return (name, text)
            case .int(let number)?: return (name, String(number))
            case .double(let number)?: return (name, String(number))
            case .bool(let flag)?: return (name, String(flag))
            default: return nil
            }
        }
    }

    /// The fixture extension that makes mockapi serve a media type as itself.
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
}
