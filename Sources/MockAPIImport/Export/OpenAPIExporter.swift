import MockAPICore

/// `mockapi export openapi`: the contract set as an OpenAPI 3.1 document (JSON).
///
/// Each contract is one operation (`operationId` = contract name, tag = its folder): path,
/// query and header parameters, a JSON object or multipart request body, and per status a
/// response whose examples are the fixtures of every named response with that status.
/// An `Authorization` prefix becomes a security scheme, since OpenAPI ignores header parameters
/// of that name.
public struct OpenAPIExporter {
    public var title: String
    public var serverURL: String

    public init(title: String = "mockapi contracts", serverURL: String = "http://127.0.0.1:8080") {
        self.title = title
        self.serverURL = serverURL
    }

    public func document(for set: ContractSet) -> JSONValue {
        var paths = JSONObject()
        var schemes = JSONObject()
        for contract in set.contracts {
            let path = Self.openAPIPath(contract.request.path)
            var item = paths[path]?.objectValue ?? JSONObject()
            let method = contract.request.method.rawValue.lowercased()
            if case .object(var shared)? = item[method] {
                // OpenAPI has one operation per method and path; contracts told apart by `match`
                // share it, and the first one describes it.
                let note = "Also contract \(contract.name), when \(contract.request.match?.description ?? "its match holds")."
                shared["description"] = .string([shared["description"]?.stringValue, note].compactMap { $0 }.joined(separator: " "))
                item[method] = .object(shared)
            } else {
                item[method] = .object(operation(contract, schemes: &schemes))
            }
            paths[path] = .object(item)
        }
        var document = JSONObject([
            ("openapi", "3.1.0"),
            ("info", .object(JSONObject([("title", .string(title)), ("version", "1.0.0"),
                                          ("description", .string("Exported by `mockapi export openapi` from \(set.contractsDirectory)."))]))),
            ("servers", [["url": .string(serverURL)]]),
            ("paths", .object(paths)),
        ])
        if !schemes.isEmpty { document["components"] = ["securitySchemes": .object(schemes)] }
        return .object(document)
    }

    /// `{id:int}` → `{id}`: OpenAPI puts the type in the parameter's schema.
    public static func openAPIPath(_ template: PathTemplate) -> String {
        guard !template.segments.isEmpty else { return "/" }
        return template.segments.map { segment in
            switch segment {
            case .literal(let text): "/" + text
            case .parameter(let name, _): "/{\(name)}"
            }
        }.joined()
    }

    private func operation(_ contract: Contract, schemes: inout JSONObject) -> JSONObject {
        var operation = JSONObject([("operationId", .string(contract.name))])
        if let folder = contract.file.split(separator: "/").dropLast().first { operation["tags"] = [.string(String(folder))] }
        if let description = contract.description { operation["summary"] = .string(description) }
        let parameters = Self.parameters(contract.request)
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body = Self.requestBody(contract.request) { operation["requestBody"] = .object(body) }
        if let scheme = Self.securityScheme(contract.request) {
            schemes[scheme.name] = .object(scheme.definition)
            operation["security"] = [.object(JSONObject([(scheme.name, .array([]))]))]
        }
        operation["responses"] = .object(Self.responses(contract))
        return operation
    }
}
