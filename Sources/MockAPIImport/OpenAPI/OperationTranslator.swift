import Foundation
import MockAPICore

/// One OpenAPI operation → one contract and its fixtures. Problems that only loosen the
/// contract land in `warnings`; ones that would make it wrong throw `Unexpressible`.
struct OperationTranslator {
    let document: OpenAPIDocument
    let reader: SchemaReader
    /// The path key as written (`/files/{id}`, `/files?beta=true`).
    let pathKey: String
    let pathItem: DocumentNode
    /// Lowercase, as the document writes it (`get`).
    let method: String
    let operation: DocumentNode
    var warnings: [ImportWarning] = []

    init(document: OpenAPIDocument, pathKey: String, pathItem: DocumentNode, method: String, operation: DocumentNode) {
        self.document = document
        self.reader = SchemaReader(document: document)
        self.pathKey = pathKey
        self.pathItem = pathItem
        self.method = method
        self.operation = operation
    }

    mutating func warn(_ reason: String, at node: DocumentNode, _ message: String) {
        warnings.append(ImportWarning(location: document.location(node), reason: reason, message: message))
    }

    mutating func translate(names: inout Set<String>) throws(Unexpressible) -> (ContractDraft, [ImportedSet.Fixture]) {
        guard let contractMethod = RequestMethod(rawValue: method.uppercased()) else {
            throw Unexpressible("method", "method \(method.uppercased()) has no contract equivalent")
        }
        let parameters = resolvedParameters()
        let (pathPart, pathQuery) = splitPathKey()
        // Empty segments are kept: `/apis/apps/` and `/v1//self` are other paths than without them.
        let segments = pathPart.dropFirst(pathPart.hasPrefix("/") ? 1 : 0).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let template = pathTemplate(components: segments, parameters: parameters)
        let components = segments.filter { !$0.isEmpty }
        let operationId = operation["operationId"]?.string
        let baseName = operationId.map(Naming.snakeCase) ?? Naming.snakeCase(([method] + components).joined(separator: "_"))
        let tag = operation["tags"]?.elements.first?.string.map { String(Naming.snakeCase($0).prefix(Naming.maxLength)) }
        let summary = operation["summary"]?.string ?? operation["description"]?.string
        var draft = ContractDraft(
            name: Naming.unique(baseName, in: &names), description: summary.map(Self.firstLine),
            folder: tag ?? Naming.folder(forPathSegments: components), method: contractMethod, path: template)
        draft.query = try queryExpectations(parameters)
        if !pathQuery.isEmpty {
            // `/files?beta=true`: the document's way to tell two operations on one path apart.
            draft.match = RequestMatch(query: pathQuery)
            for (name, _) in pathQuery where !draft.query.contains(where: { $0.name == name }) {
                draft.query.append(ContractDraft.Query(name: name, required: true))
            }
        }
        let headers = headerExpectations(parameters)
        switch securityNeed(except: headers) {
        case .header(let header)?: draft.headers = headers + [header]
        case .credentials(let credentials)?: draft.headers = headers; draft.credentials = credentials
        case nil: draft.headers = headers
        }
        translateBody(into: &draft, declaredTypes: declaredContentTypes(parameters))
        let fixtures = try translateResponses(into: &draft)
        setRefusals(of: &draft)
        return (draft, fixtures)
    }

    /// A request that breaks the contract gets the document's own answer for it: its 400 (or 422)
    /// response; one without credentials its 401. A document that secures an operation but
    /// defines no 401 (nor a `default` standing for it) still means one: a made-up 401 is added,
    /// as every real API answers a request without credentials.
    private mutating func setRefusals(of draft: inout ContractDraft) {
        func byStatus(_ status: Int) -> String? { draft.responses.first { $0.status == status }?.name }
        draft.refusal = byStatus(400) ?? byStatus(422)
        if let credentials = draft.credentials {
            let refusal = unauthorized(in: &draft, needing: credentials.anyOf.map(\.summary).joined(separator: " or "))
            draft.credentials?.refusal = refusal
            return
        }
        guard let last = draft.headers.indices.last, case .header(let security)? = securityNeed(except: []),
            security.name == draft.headers[last].name, draft.headers[last].required
        else { return }
        let refusal = unauthorized(in: &draft, needing: draft.headers[last].name)
        draft.headers[last].refusal = refusal
    }

    /// The document's 401, or a made-up one (with a warning) when it defines none.
    private mutating func unauthorized(in draft: inout ContractDraft, needing credential: String) -> String {
        if let name = draft.responses.first(where: { $0.status == 401 })?.name { return name }
        var taken = Set(draft.responses.map(\.name))
        let name = Naming.unique("unauthorized", in: &taken)
        draft.responses.append(
            ContractFile.Response(
                name: name, status: 401,
                body: [
                    "error": "unauthorized",
                    "message": .string("\(credential) is missing or not accepted"),
                ]))
        warn("made-up 401", at: operation, "the operation needs \(credential) but defines no 401: a request without it gets a made-up 401 (response \"\(name)\")")
        return name
    }

    /// `/files?beta=true` → (`/files`, [beta: true]); a `#fragment` is no part of a request path and is dropped.
    private mutating func splitPathKey() -> (String, [(name: String, value: String)]) {
        var path = pathKey
        if let hash = path.firstIndex(of: "#") {
            warn("path fragment", at: pathItem, "the path's fragment \"\(path[hash...])\" is not sent in a request; left out")
            path = String(path[..<hash])
        }
        guard let mark = path.firstIndex(of: "?") else { return (path, []) }
        let query = path[path.index(after: mark)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in (String(text).removingPercentEncoding ?? String(text)) }
            return (name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
        return (String(path[..<mark]), query.filter { !$0.name.isEmpty })
    }

    /// Path-item parameters overridden by operation ones with the same name and location; one
    /// that cannot be read is left out with a warning.
    private mutating func resolvedParameters() -> [DocumentNode] {
        var result: [DocumentNode] = []
        for either in (pathItem["parameters"]?.elements ?? []) + (operation["parameters"]?.elements ?? []) {
            guard let parameter = document.resolve(either) else { continue } // the document warned
            guard let name = parameter["name"]?.string, let location = parameter["in"]?.string else {
                warn("unreadable parameter", at: either, "a parameter without \"name\" or \"in\"; left out")
                continue
            }
            result.removeAll { $0["name"]?.string == name && $0["in"]?.string == location }
            result.append(parameter)
        }
        return result
    }

    /// `/pets/{petId}` → `/pets/{petId:int}` when petId's schema is an integer. A segment that
    /// mixes text and parameters (`photo.{format}`) is one parameter, checked as any segment.
    private mutating func pathTemplate(components: [String], parameters: [DocumentNode]) -> String {
        var segments: [String] = []
        var used: Set<String> = []
        for component in components {
            guard component.contains("{") || component.contains("}") else {
                segments.append(component)
                continue
            }
            let names = Self.parameterNames(in: component)
            guard component.hasPrefix("{"), component.hasSuffix("}"), names.count == 1 else {
                let name = names.isEmpty ? "segment" : names.joined(separator: "_")
                warn("mixed path segment", at: pathItem, "path segment \"\(component)\" mixes text and a parameter; the contract takes any segment there")
                segments.append("{\(Naming.unique(Naming.parameterName(name), in: &used))}")
                continue
            }
            let name = names[0]
            let schema = parameters.first { $0["in"]?.string == "path" && $0["name"]?.string == name }.flatMap(schema(of:))
            let type = schema.flatMap { reader.resolve($0) }.map { $0.type == "integer" && !Self.reachesPastInt64($0) ? ":int" : "" } ?? ""
            segments.append("{\(Naming.unique(Naming.parameterName(name), in: &used))\(type)}")
        }
        return "/" + segments.joined(separator: "/")
    }

    /// An integer the document lets go past Int64 (`format: uint64`, a bound beyond it): a text
    /// segment, since a contract's `int` segment is an Int64. An integer without a format stays
    /// `int`: the servers behind such documents take Int64 ids, and the segment keeps telling
    /// `/pets/42` from `/pets/abc` and from a text route beside it.
    static func reachesPastInt64(_ view: SchemaView) -> Bool {
        let end = 9_223_372_036_854_775_807.0
        if let format = view.format?.lowercased(), format.hasPrefix("uint64") || format == "biginteger" || format == "int128" { return true }
        return (view.maximum.map { $0.value > end } ?? false) || (view.minimum.map { $0.value < -end - 1 } ?? false)
    }

    private static func parameterNames(in segment: String) -> [String] {
        var names: [String] = []
        var rest = Substring(segment)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// A parameter's schema, whether inline, a `$ref`, or under `content`.
    func schema(of parameter: DocumentNode) -> DocumentNode? {
        if let schema = parameter["schema"], schema.isObject { return schema }
        return parameter["content"]?.members.first?.node["schema"]
    }

    /// A content map's entries with media types lowercased (parameters such as `; charset=utf-8` dropped).
    func contents(_ map: DocumentNode?) -> [(type: String, content: DocumentNode)] {
        (map?.members ?? []).compactMap { type, node in
            let bare = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? type.lowercased()
            return node.isObject ? (bare, node) : nil
        }
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "").trimmingCharacters(in: .whitespaces)
    }
}
