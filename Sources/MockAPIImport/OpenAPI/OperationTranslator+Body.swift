import Foundation
import MockAPICore

extension OperationTranslator {
    /// A JSON object body becomes `json` keys, a multipart/form-data one `multipart` parts;
    /// other bodies are not checked. A body the contract cannot describe key by key (a free-form
    /// map, an array, a `oneOf`) is imported unchecked, with a warning.
    mutating func translateBody(into draft: inout ContractDraft) {
        guard let written = operation["requestBody"] else { return }
        guard let body = document.resolve(written) else { return }   // the document warned
        if draft.method == .GET || draft.method == .HEAD {
            warn("GET body", at: written, "a \(draft.method.rawValue) request body is not checked (contracts give GET no body)")
            return
        }
        let contents = contents(body["content"])
        let json = contents.first { Self.isJSON($0.type) }
        let multipart = contents.first { $0.type == "multipart/form-data" }
        if let json {
            guard let schema = json.content["schema"] else {
                warn("body unchecked", at: json.content, "the JSON request body has no schema; its keys are not checked")
                return
            }
            guard let keys = jsonKeys(schema) else { return }
            draft.json = keys
            if let multipart {
                warn("alternative body", at: multipart.content, "a multipart body is offered beside JSON; the contract takes the JSON one")
            }
        } else if let multipart {
            guard let schema = multipart.content["schema"] else {
                warn("body unchecked", at: multipart.content, "the multipart request body has no schema; its parts are not checked")
                return
            }
            guard let parts = parts(schema, encoding: multipart.content["encoding"]) else { return }
            draft.multipart = parts
        } else if !contents.isEmpty {
            warn("body unchecked", at: body, "request body \(contents.map(\.type).joined(separator: ", ")) is not checked (contracts check JSON and multipart bodies)")
            return
        }
        if body["required"]?.bool != true {
            warn("optional body", at: body, "the request body is optional in the document; the contract requires one")
        }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let lower = mediaType.lowercased()
        return lower == "application/json" || lower.hasSuffix("+json")
    }

    /// Top-level keys, or nil (with a warning) when the body is not an object with named properties.
    private mutating func jsonKeys(_ schema: DocumentNode) -> [ContractDraft.JSONKey]? {
        guard let properties = reader.properties(of: schema) else {
            warn("body unchecked", at: schema, "the JSON request body is not an object with named properties; its keys are not checked")
            return nil
        }
        if reader.isFreeFormMap(schema) || reader.isMap(schema) {
            warn("open object", at: schema, "the JSON request body admits keys it does not name (additionalProperties); its keys are not checked")
            return nil
        }
        _ = properties
        // readOnly keys are the server's (an id, a timestamp): a client does not send them.
        return reader.objectKeys(schema) ?? []
    }

    private mutating func parts(_ schema: DocumentNode, encoding: DocumentNode?) -> [ContractDraft.Part]? {
        guard let properties = reader.properties(of: schema) else {
            warn("body unchecked", at: schema, "the multipart request body is not an object with named parts; its parts are not checked")
            return nil
        }
        var result: [ContractDraft.Part] = []
        for property in properties {
            if let items = reader.arrayItems(property.schema) {
                // The same part sent several times: a contract names each part once.
                warn("repeated part", at: property.schema, "multipart part \"\(property.name)\" is an array (the same part sent several times); the parts are not checked")
                _ = items
                return nil
            }
            let isFile = reader.isFile(property.schema)
            var part = ContractDraft.Part(name: property.name, required: property.required, filename: isFile)
            if isFile {
                let written = encoding?[property.name]?["contentType"]?.string
                let declared = written.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
                    ?? reader.contentMediaType(property.schema).map { [$0.lowercased()] } ?? []
                // A contract matches exact types; `image/*` or `*/*` means any.
                if !declared.isEmpty, !declared.contains(where: { $0.contains("*") }) { part.contentTypes = declared }
            }
            result.append(part)
        }
        return result
    }
}
