import MockAPICore
import OpenAPIKit

extension OperationTranslator {
    /// A JSON object body becomes `json` keys, a multipart/form-data one `multipart` parts;
    /// other bodies are not checked.
    mutating func translateBody(into draft: inout ContractDraft) throws(Unexpressible) {
        guard let either = operation.requestBody else { return }
        guard let body = try? components.lookup(either) else { throw Unexpressible("the request body reference cannot be resolved") }
        if draft.method == .GET || draft.method == .HEAD {
            warnings.append("a \(draft.method.rawValue) request body is not checked (contracts give GET no body)")
            return
        }
        let contents = contents(body.content)
        let json = contents.first { Self.isJSON($0.type) }
        let multipart = contents.first { $0.type == "multipart/form-data" }
        if let json {
            guard let schema = json.content.schema else {
                warnings.append("the JSON request body has no schema; its keys are not checked")
                return
            }
            draft.json = try jsonKeys(schema)
        } else if let multipart {
            guard let schema = multipart.content.schema else {
                warnings.append("the multipart request body has no schema; its parts are not checked")
                return
            }
            draft.multipart = try parts(schema, encoding: multipart.content.encodingMap)
        } else if !contents.isEmpty {
            warnings.append("request body \(contents.map(\.type).joined(separator: ", ")) is not checked (contracts check JSON and multipart bodies)")
            return
        }
        if !body.required {
            warnings.append("the request body is optional in the document; the contract requires one")
        }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let lower = mediaType.lowercased()
        return lower == "application/json" || lower.hasSuffix("+json")
    }

    private func jsonKeys(_ schema: JSONSchema) throws(Unexpressible) -> [ContractDraft.JSONKey] {
        guard let properties = reader.properties(of: schema) else {
            throw Unexpressible("the JSON request body is not an object with named properties (a contract checks an object's keys)")
        }
        if reader.admitsOtherKeys(schema) {
            throw Unexpressible("the JSON request body admits keys it does not name (additionalProperties), which a contract would refuse")
        }
        return properties.compactMap { property in
            // readOnly keys are the server's (an id, a timestamp): a client does not send them.
            if reader.resolve(property.schema)?.readOnly == true { return nil }
            return ContractDraft.JSONKey(key: property.name, type: reader.valueType(property.schema), required: property.required)
        }
    }

    private func parts(_ schema: JSONSchema, encoding: OrderedDictionary<String, OpenAPI.Content.Encoding>?) throws(Unexpressible) -> [ContractDraft.Part] {
        guard let properties = reader.properties(of: schema) else {
            throw Unexpressible("the multipart request body is not an object with named parts")
        }
        var result: [ContractDraft.Part] = []
        for property in properties {
            if reader.arrayItems(property.schema) != nil {
                throw Unexpressible("multipart part \"\(property.name)\" is an array (the same part sent several times), which a contract refuses")
            }
            let isFile = reader.isFile(property.schema)
            var part = ContractDraft.Part(name: property.name, required: property.required, filename: isFile)
            if isFile {
                let declared = encoding?[property.name]?.contentTypes.map(\.typeAndSubtype).map { $0.lowercased() }
                    ?? reader.contentMediaType(property.schema).map { [$0.lowercased()] } ?? []
                // A contract matches exact types; `image/*` or `*/*` means any.
                if !declared.isEmpty, !declared.contains(where: { $0.contains("*") }) { part.contentTypes = declared }
            }
            result.append(part)
        }
        return result
    }
}
