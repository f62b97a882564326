import MockAPICore
import OpenAPIKit

/// One OpenAPI operation → one contract and its fixtures. Problems that only loosen the
/// contract land in `warnings`; ones that would make it wrong throw `Unexpressible`.
struct OperationTranslator {
    let document: OpenAPI.Document
    let reader: SchemaReader
    let path: OpenAPI.Path
    let pathItem: OpenAPI.PathItem
    let method: OpenAPI.HttpMethod
    let operation: OpenAPI.Operation
    var warnings: [String] = []

    init(document: OpenAPI.Document, reader: SchemaReader, path: OpenAPI.Path, pathItem: OpenAPI.PathItem,
         method: OpenAPI.HttpMethod, operation: OpenAPI.Operation) {
        self.document = document
        self.reader = reader
        self.path = path
        self.pathItem = pathItem
        self.method = method
        self.operation = operation
    }

    var components: OpenAPI.Components { document.components }

    mutating func translate(names: inout Set<String>) throws(Unexpressible) -> (ContractDraft, [ImportedSet.Fixture]) {
        guard let contractMethod = HTTPMethod(rawValue: method.rawValue.uppercased()) else {
            throw Unexpressible("method \(method.rawValue.uppercased()) has no contract equivalent")
        }
        let parameters = try resolvedParameters()
        let template = try pathTemplate(parameters: parameters)
        let baseName = operation.operationId.map(Naming.snakeCase)
            ?? Naming.snakeCase(([method.rawValue] + path.components).joined(separator: "_"))
        let tag = operation.tags?.first.map { String(Naming.snakeCase($0).prefix(Naming.maxLength)) }
        var draft = ContractDraft(name: Naming.unique(baseName, in: &names),
                                  description: (operation.summary ?? operation.description).map(Self.firstLine),
                                  folder: tag ?? Naming.folder(forPathSegments: path.components),
                                  method: contractMethod, path: template)
        draft.query = try queryExpectations(parameters)
        let headers = headerExpectations(parameters)
        draft.headers = headers + securityHeaders(except: headers)
        try translateBody(into: &draft)
        let fixtures = try translateResponses(into: &draft)
        return (draft, fixtures)
    }

    /// Path-item parameters overridden by operation ones with the same name and location.
    private func resolvedParameters() throws(Unexpressible) -> [OpenAPI.Parameter] {
        var result: [OpenAPI.Parameter] = []
        for either in pathItem.parameters + operation.parameters {
            guard let parameter = try? components.lookup(either) else { throw Unexpressible("a parameter reference cannot be resolved") }
            result.removeAll { $0.name == parameter.name && $0.location == parameter.location }
            result.append(parameter)
        }
        return result
    }

    /// `/pets/{petId}` → `/pets/{petId:int}` when petId's schema is an integer.
    private func pathTemplate(parameters: [OpenAPI.Parameter]) throws(Unexpressible) -> String {
        var segments: [String] = []
        var used: Set<String> = []
        for component in path.components {
            guard component.contains("{") || component.contains("}") else {
                segments.append(component)
                continue
            }
            guard component.hasPrefix("{"), component.hasSuffix("}"), component.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" }) else {
                throw Unexpressible("path segment \"\(component)\" mixes text and a parameter; a template segment is all literal or one parameter")
            }
            let name = String(component.dropFirst().dropLast())
            let schema = parameters.first { $0.location == .path && $0.name == name }.flatMap(schema(of:))
            let type = schema.flatMap { reader.resolve($0) }.map { if case .integer = $0.value { ":int" } else { "" } } ?? ""
            segments.append("{\(Naming.unique(Naming.parameterName(name), in: &used))\(type)}")
        }
        return "/" + segments.joined(separator: "/")
    }

    /// A parameter's schema, whether inline, a `$ref`, or under `content`.
    func schema(of parameter: OpenAPI.Parameter) -> JSONSchema? {
        switch parameter.schemaOrContent {
        case .a(let context): return Self.schema(context.schema)
        case .b(let content): return contents(content).first?.content.schema
        }
    }

    /// A content map with its `$ref`s resolved (ones that cannot be are dropped), media types lowercased.
    func contents(_ map: OpenAPI.Content.Map) -> [(type: String, content: OpenAPI.Content)] {
        map.compactMap { type, either in (try? components.lookup(either)).map { (type.typeAndSubtype.lowercased(), $0) } }
    }

    static func schema(_ either: Either<OpenAPI.Reference<JSONSchema>, JSONSchema>) -> JSONSchema {
        switch either {
        case .a(let reference): .reference(reference.jsonReference, .init())
        case .b(let schema): schema
        }
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "").trimmingCharacters(in: .whitespaces)
    }
}
