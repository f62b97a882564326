import Foundation
import MockAPICore

extension OperationTranslator {
    /// A JSON object body becomes `json` keys (other keys allowed unless the schema says
    /// `additionalProperties: false`), a `oneOf`/`anyOf` of objects `body.oneOf`/`anyOf` options
    /// (each closed or open as the document says), a multipart/form-data one `multipart` parts, both when the
    /// document offers both; `required` and `nullable` as the document says. Every other media type
    /// is listed in `body.contentTypes`: the contract's keys read a form (and the JSON keys come from
    /// a form's schema when there is no JSON one), other types are taken unread. A wildcard type
    /// cannot be listed and is dropped with a warning, and so is a body the contract cannot
    /// describe key by key (an array, a string, a repeated part).
    /// `declaredTypes`: the values a `Content-Type` header parameter allows (Docker's `/build`
    /// says `application/x-tar` there, its body `application/octet-stream`): taken besides the
    /// body's own types, unread unless JSON.
    mutating func translateBody(into draft: inout ContractDraft, declaredTypes: [String] = []) {
        guard let written = operation["requestBody"] else { return }
        guard let body = document.resolve(written) else { return } // the document warned
        if draft.method == .GET || draft.method == .HEAD {
            warn("GET body", at: written, "a \(draft.method.rawValue) request body is not checked (contracts give GET no body)")
            return
        }
        let contents = contents(body["content"])
        let json = contents.first { Self.isJSON($0.type) } ?? contents.first { $0.type == MediaType.form }
        let multipart = contents.first { $0.type == "multipart/form-data" }
        // An optional body (the document's default) may be left out; JSON or multipart, whichever the request sends.
        draft.body.required = body["required"]?.bool == true
        if let json {
            if let schema = json.content["schema"], schema.isObject {
                let budget = SchemaWalkBudget()
                // A form's fields are text: they cannot tell a `oneOf`'s objects apart. Beside a
                // multipart body the union reading stays: options leave `body.otherKeys` off, and
                // the parts share it (Discord's webhooks: their `attachments` part was refused).
                if Self.isJSON(json.type), multipart == nil, let (keyword, options) = reader.bodyOptions(schema, budget: budget) {
                    // The keys every option has, named beside the `oneOf` (as an exported contract writes them).
                    draft.json = reader.objectKeys(schema, budget: budget) ?? []
                    if keyword == "oneOf" { draft.body.oneOf = options } else { draft.body.anyOf = options }
                } else {
                    draft.json = jsonKeys(schema, budget: budget) // nil: not an object body, not checked
                    draft.body.otherKeys = reader.admitsOtherKeys(schema) || reader.unionKeys(schema, budget: budget) != nil
                }
                if let place = budget.exhaustedIn {
                    warn(
                        "body bounded", at: schema,
                        "the request body's schema fans out past \(SchemaWalkBudget.defaultNodes) nodes (reached in \(place)); values deeper than that are not checked")
                }
                // An option of `null` (`oneOf: [Pet, null]`) says it too.
                let nullOption = draft.body.branches != nil && (reader.resolve(schema).map { $0.oneOf + $0.anyOf } ?? []).contains { reader.resolve($0)?.isOnlyNull == true }
                draft.body.nullable = reader.resolve(schema)?.nullable == true || nullOption
                // Properties without a `type`: JSON Schema lets any other type through unchecked (Xero's folders, InfluxData's share).
                draft.body.otherTypes = draft.json != nil && reader.namesNoType(schema)
            } else {
                // No schema: any JSON object.
                draft.json = []
                draft.body.otherKeys = true
            }
        }
        if let multipart {
            if let schema = multipart.content["schema"], schema.isObject, let (parts, open) = parts(schema, encoding: multipart.content["encoding"]) {
                draft.multipart = parts
                // Parts the schema does not name (JSON Schema's default), or a list part sent as often as it has elements.
                if json == nil { draft.body.otherKeys = open }
            } else if json == nil {
                warn("body unchecked", at: multipart.content, "the multipart request body has no readable parts; its parts are not checked")
            }
        }
        let wildcards = contents.filter { $0.type.contains("*") || !$0.type.contains("/") }
        if !wildcards.isEmpty {
            warn("body media type", at: body, "request body \(wildcards.map(\.type).joined(separator: ", ")) is not a type a contract can list; dropped")
        }
        // A multipart body whose parts cannot be read is still taken (unread), not refused.
        var listed = contents.map(\.type).filter { type in
            (type != "multipart/form-data" || draft.multipart == nil) && !wildcards.contains { $0.type == type }
        }
        if !listed.isEmpty || draft.json != nil || draft.multipart != nil {
            for type in declaredTypes where !listed.contains(type) && type.contains("/") && !type.contains("*") && type != "multipart/form-data" {
                listed.append(type)
            }
        }
        // `application/json` alone is what `json` reads without a list.
        if !listed.isEmpty, !(listed == ["application/json"] && draft.json != nil) { draft.body.contentTypes = listed }
        if draft.json == nil {
            // What `json` would have said of a body it does not read.
            draft.body.nullable = false
            if draft.multipart == nil { draft.body.otherKeys = false }
            draft.body.otherTypes = false
        }
        // Nothing checks the body, so it is not required either.
        if draft.json == nil, draft.multipart == nil, draft.body.contentTypes == nil { draft.body = BodyRules() }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let lower = mediaType.lowercased()
        return lower == "application/json" || lower.hasSuffix("+json")
    }

    /// Top-level keys: an object's named properties, the union of `oneOf` objects, or none (a free-form
    /// map, or a body the contract cannot describe key by key, then with a warning) with other keys allowed.
    private mutating func jsonKeys(_ schema: DocumentNode, budget: SchemaWalkBudget) -> [ContractDraft.JSONKey]? {
        if let keys = reader.objectKeys(schema, budget: budget) { return keys }
        if let union = reader.unionKeys(schema, budget: budget) {
            warn("body loosened", at: schema, "the JSON request body is one of several objects; the contract takes the keys of any of them")
            return union
        }
        if reader.properties(of: schema) != nil || reader.isFreeFormMap(schema) || reader.resolve(schema)?.type == "object" { return [] }
        warn("body unchecked", at: schema, "the JSON request body is not an object with named properties; it is not checked")
        return nil
    }

    /// The parts a multipart schema names, and whether it takes others; nil when it names none.
    private mutating func parts(_ schema: DocumentNode, encoding: DocumentNode?) -> ([ContractDraft.Part], open: Bool)? {
        guard let properties = reader.properties(of: schema) ?? reader.unionProperties(schema) else {
            warn("body unchecked", at: schema, "the multipart request body is not an object with named parts; its parts are not checked")
            return nil
        }
        var open = reader.admitsOtherKeys(schema)
        var result: [ContractDraft.Part] = []
        for property in properties {
            if reader.mayBeArray(property.schema) {
                // The same part sent once per element (or not at all for none): a contract names
                // each part once, so this one is left unnamed and taken as another part.
                guard open else {
                    warn("repeated part", at: property.schema, "multipart part \"\(property.name)\" is an array (the same part sent several times); the parts are not checked")
                    return nil
                }
                warn("repeated part", at: property.schema, "multipart part \"\(property.name)\" is an array (the same part sent several times); taken unchecked")
                open = true
                continue
            }
            let isFile = reader.isFile(property.schema)
            // A filename is required only where our export said so: OpenAPI cannot say it, and
            // clients (schemathesis among them) send binary parts without one.
            let filename = isFile && reader.resolve(property.schema)?.node[OpenAPIExporter.filenameExtension]?.bool == true
            var part = ContractDraft.Part(name: property.name, required: property.required, filename: filename)
            if isFile {
                let written = encoding?[property.name]?["contentType"]?.string
                let declared =
                    written.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
                    ?? reader.contentMediaType(property.schema).map { [$0.lowercased()] } ?? []
                // A contract matches exact types; `image/*` or `*/*` means any.
                if !declared.isEmpty, !declared.contains(where: { $0.contains("*") }) { part.contentTypes = declared }
            }
            result.append(part)
        }
        return (result, open)
    }
}
