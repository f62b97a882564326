package import MockAPICore

/// `mockapi export openapi`: the contract set as an OpenAPI 3.1 document (JSON).
///
/// Each contract is one operation (`operationId` = contract name, tag = its folder): path,
/// query and header parameters, a JSON object or multipart request body, and per status a
/// response whose examples are the fixtures of every named response with that status.
/// An `Authorization` prefix becomes a security scheme, since OpenAPI ignores header parameters
/// of that name.
///
/// What OpenAPI cannot say (`when`, `sequence`, `match`, delays, faults, a `{x:path}` segment,
/// fixture files byte for byte) travels in vendor extensions: each operation's
/// `x-mockapi-contracts` holds its contract files as written, and the root's `x-mockapi` the
/// set's defaults and fixtures, so `import openapi` gives back the same set.
package struct OpenAPIExporter {
    package var title: String
    package var serverURL: String

    package init(title: String = "mockapi contracts", serverURL: String = "http://127.0.0.1:8080") {
        self.title = title
        self.serverURL = serverURL
    }

    package func document(for set: ContractSet) -> JSONValue {
        var paths = JSONObject()
        var schemes = JSONObject()
        for contract in set.contracts {
            let path = Self.openAPIPath(contract.request.path)
            var item = paths[path]?.objectValue ?? JSONObject()
            let method = contract.request.method.rawValue.lowercased()
            var operation: JSONObject
            if case .object(let shared)? = item[method] {
                operation = Self.sharing(shared, with: contract)
            } else {
                operation = self.operation(contract, schemes: &schemes)
            }
            if let source = contract.source {
                let entry: JSONValue = ["file": .string(contract.file), "contract": source.fileJSON]
                operation[Self.contractsExtension] = .array((operation[Self.contractsExtension]?.arrayValue ?? []) + [entry])
            }
            item[method] = .object(operation)
            paths[path] = .object(item)
        }
        for (path, item) in paths.members {
            var methods = item.objectValue ?? JSONObject()
            for (method, operation) in methods.members {
                guard var object = operation.objectValue else { continue }
                object[Self.standardExtension] = .string(StandardPart.fingerprint(of: object))
                methods[method] = .object(object)
            }
            paths[path] = .object(methods)
        }
        var document = JSONObject([
            ("openapi", "3.1.0"),
            (
                "info",
                .object(
                    JSONObject([
                        ("title", .string(title)), ("version", "1.0.0"),
                        ("description", .string("Exported by `mockapi export openapi` from \(set.contractsDirectory).")),
                    ]))
            ),
            ("servers", [["url": .string(serverURL)]]),
            ("paths", .object(paths)),
        ])
        if !schemes.isEmpty { document["components"] = ["securitySchemes": .object(schemes)] }
        document[Self.setExtension] = ExportedFixtures.setExtension(for: set)
        return .object(document)
    }

    static let contractsExtension = "x-mockapi-contracts"
    /// On a binary part: the contract requires a filename, which OpenAPI has no word for.
    static let filenameExtension = "x-mockapi-filename"
    static let setExtension = "x-mockapi"
    /// On each operation: a fingerprint of what plain OpenAPI says of it, so `import openapi`
    /// can tell when that part was edited after export (the contracts would silently win).
    static let standardExtension = "x-mockapi-standard"

    /// OpenAPI has one operation per method and path; contracts told apart by `match` share it:
    /// the first describes it, and its request body takes any of theirs.
    private static func sharing(_ shared: JSONObject, with contract: Contract) -> JSONObject {
        var operation = shared
        let note = "Also contract \(contract.name), when \(contract.request.match?.description ?? "its match holds")."
        operation["description"] = .string([operation["description"]?.stringValue, note].compactMap { $0 }.joined(separator: " "))
        guard let added = requestBody(contract.request)?["content"]?.objectValue,
            var body = operation["requestBody"]?.objectValue, var content = body["content"]?.objectValue
        else { return operation }
        for (mediaType, media) in added.members {
            guard let schema = media.objectValue?["schema"] else { continue }
            var existing = content[mediaType]?.objectValue ?? JSONObject()
            if let first = existing["schema"] {
                let alternatives = first.objectValue?["anyOf"]?.arrayValue ?? [first]
                existing["schema"] = ["anyOf": .array(alternatives + [schema])]
            } else {
                existing["schema"] = schema
            }
            content[mediaType] = .object(existing)
        }
        body["content"] = .object(content)
        operation["requestBody"] = .object(body)
        return operation
    }

    /// `{id:int}` → `{id}`: OpenAPI puts the type in the parameter's schema.
    package static func openAPIPath(_ template: PathTemplate) -> String {
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
        if let credentials = contract.request.credentials {
            // Alternatives: OpenAPI's `security` is a list of which any one is enough.
            operation["security"] = .array(
                credentials.anyOf.map { credential in
                    let scheme = Self.securityScheme(credential)
                    schemes[scheme.name] = .object(scheme.definition)
                    return .object(JSONObject([(scheme.name, .array([]))]))
                })
        } else if let scheme = Self.securityScheme(contract.request) {
            schemes[scheme.name] = .object(scheme.definition)
            operation["security"] = [.object(JSONObject([(scheme.name, .array([]))]))]
        }
        operation["responses"] = .object(Self.responses(contract, serverURL: serverURL))
        return operation
    }
}
