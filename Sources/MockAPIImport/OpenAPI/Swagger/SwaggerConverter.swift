import MockAPICore

/// A Swagger 2.0 document rewritten as the OpenAPI 3.0 document that says the same, so one
/// importer reads both. What moves:
///
/// - `host` and `basePath` become `servers` (as OpenAPI 3 says them; like a 3.x server URL's path,
///   not part of a contract's path, so a client's base URL carries it); `definitions`, top-level `parameters` and `responses`
///   and `securityDefinitions` go under `components`, and every local `$ref` follows them;
/// - an `in: body` parameter becomes a request body of each `consumes` type; `in: formData` ones
///   become a multipart (a `type: file` among them, or `multipart/form-data` consumed) or
///   form-encoded body with one property each;
/// - a response's `schema` becomes its content for each `produces` type, its `examples` (by media
///   type) that content's examples; a `type: file` response is `application/octet-stream` binary;
///   one without a schema still has its `produces` types (as empty media types): schemathesis and
///   Swagger servers hold every answer to them;
/// - a query array's `collectionFormat` becomes `style`/`explode` (`multi` → form, exploded).
enum SwaggerConverter {
    static func convert(_ swagger: JSONValue) -> JSONValue {
        guard case .object(let root) = swagger else { return swagger }
        let context = Context(root: root)
        var out = JSONObject()
        out["openapi"] = .string("3.0.3")
        out["info"] = root["info"] ?? .object(JSONObject([("title", .string("")), ("version", .string(""))]))
        if let security = root["security"] { out["security"] = security }
        if let tags = root["tags"] { out["tags"] = tags }
        let base = root["basePath"]?.stringValue ?? ""
        if let host = root["host"]?.stringValue ?? (base.isEmpty ? nil : "") {
            let scheme = root["schemes"].flatMap(Context.strings)?.first ?? "https"
            out["servers"] = .array([.object(JSONObject([("url", .string((host.isEmpty ? "" : "\(scheme)://\(host)") + base))]))])
        }

        var paths = JSONObject()
        for (key, item) in root["paths"]?.objectValue?.members ?? [] {
            guard case .object(let pathItem) = item else { continue }
            paths[key] = .object(context.pathItem(pathItem))
        }
        out["paths"] = .object(paths)

        var components = JSONObject()
        if let definitions = root["definitions"] { components["schemas"] = definitions }
        var parameters = JSONObject()
        for (name, parameter) in root["parameters"]?.objectValue?.members ?? [] {
            guard case .object(let object) = parameter, !["body", "formData"].contains(object["in"]?.stringValue) else { continue }
            parameters[name] = .object(context.parameter(object))
        }
        if !parameters.isEmpty { components["parameters"] = .object(parameters) }
        var responses = JSONObject()
        for (name, response) in root["responses"]?.objectValue?.members ?? [] {
            guard case .object(let object) = response else { continue }
            responses[name] = .object(context.response(object, produces: context.produces, declared: context.declaredProduces))
        }
        if !responses.isEmpty { components["responses"] = .object(responses) }
        var schemes = JSONObject()
        for (name, scheme) in root["securityDefinitions"]?.objectValue?.members ?? [] {
            guard case .object(let object) = scheme else { continue }
            schemes[name] = .object(securityScheme(object))
        }
        if !schemes.isEmpty { components["securitySchemes"] = .object(schemes) }
        out["components"] = .object(components)
        return rewritingReferences(.object(out))
    }

    /// `#/definitions/X` → `#/components/schemas/X` (and parameters, responses), everywhere.
    static func rewritingReferences(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var out = JSONObject()
            for (key, member) in object.members {
                if key == "$ref", case .string(let reference) = member {
                    out[key] = .string(rewritten(reference))
                } else {
                    out[key] = rewritingReferences(member)
                }
            }
            return .object(out)
        case .array(let elements):
            return .array(elements.map(rewritingReferences))
        default:
            return value
        }
    }

    private static func rewritten(_ reference: String) -> String {
        for (old, new) in [
            ("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"),
            ("#/responses/", "#/components/responses/"),
        ] where reference.hasPrefix(old) {
            return new + reference.dropFirst(old.count)
        }
        return reference
    }

    private static func securityScheme(_ scheme: JSONObject) -> JSONObject {
        var out = JSONObject()
        switch scheme["type"]?.stringValue {
        case "basic":
            out["type"] = .string("http")
            out["scheme"] = .string("basic")
        case "apiKey":
            out["type"] = .string("apiKey")
            out["name"] = scheme["name"] ?? .string("")
            out["in"] = scheme["in"] ?? .string("header")
        case "oauth2":
            out["type"] = .string("oauth2")
            out["flows"] = .object(JSONObject())
        default:
            return scheme
        }
        return out
    }

    /// The document-wide settings an operation reads.
    struct Context {
        let root: JSONObject
        let consumes: [String]
        let produces: [String]
        /// Only what the document says: a bodiless answer gets no type the document did not give it.
        let declaredProduces: [String]

        init(root: JSONObject) {
            self.root = root
            consumes = Self.strings(root["consumes"]) ?? ["application/json"]
            declaredProduces = Self.strings(root["produces"]) ?? []
            produces = declaredProduces.isEmpty ? ["application/json"] : declaredProduces
        }

        static func strings(_ value: JSONValue?) -> [String]? {
            guard case .array(let elements)? = value else { return nil }
            let strings = elements.compactMap(\.stringValue)
            return strings.isEmpty ? nil : strings
        }

        /// A local `#/parameters/X` followed (body and form parameters must be seen to become a body); others as written.
        func resolvedParameter(_ value: JSONValue) -> JSONObject? {
            guard case .object(let object) = value else { return nil }
            if let reference = object["$ref"]?.stringValue, reference.hasPrefix("#/parameters/"),
                case .object(let target)? = root["parameters"]?.objectValue?[DocumentNode.unescape(reference.dropFirst("#/parameters/".count))]
            {
                return target
            }
            return object
        }

        func pathItem(_ item: JSONObject) -> JSONObject {
            var out = JSONObject()
            let shared = item["parameters"].map(parameterList) ?? []
            for (key, value) in item.members {
                guard OpenAPIImporter.methods.contains(key), case .object(let operation) = value else { continue }
                out[key] = .object(self.operation(operation, shared: shared))
            }
            return out
        }

        private func parameterList(_ value: JSONValue) -> [JSONObject] {
            guard case .array(let elements) = value else { return [] }
            return elements.compactMap(resolvedParameter)
        }

        func operation(_ operation: JSONObject, shared: [JSONObject]) -> JSONObject {
            var out = JSONObject()
            for key in ["operationId", "tags", "summary", "description", "deprecated", "security"] { out[key] = operation[key] }
            let consumes = Self.strings(operation["consumes"]) ?? self.consumes
            let declaredProduces = Self.strings(operation["produces"]) ?? self.declaredProduces
            let produces = declaredProduces.isEmpty ? self.produces : declaredProduces
            var parameters = shared
            for parameter in operation["parameters"].map(parameterList) ?? [] {
                parameters.removeAll { $0["name"] == parameter["name"] && $0["in"] == parameter["in"] && parameter["$ref"] == nil }
                parameters.append(parameter)
            }
            var converted: [JSONValue] = []
            var form: [JSONObject] = []
            for parameter in parameters {
                switch parameter["in"]?.stringValue {
                case "body": out["requestBody"] = .object(body(parameter, consumes: consumes))
                case "formData": form.append(parameter)
                default: converted.append(parameter["$ref"] != nil ? .object(parameter) : .object(self.parameter(parameter)))
                }
            }
            if !converted.isEmpty { out["parameters"] = .array(converted) }
            if !form.isEmpty { out["requestBody"] = .object(formBody(form, consumes: consumes)) }
            var responses = JSONObject()
            for (code, response) in operation["responses"]?.objectValue?.members ?? [] {
                guard case .object(let object) = response else { continue }
                responses[code] = object["$ref"] != nil ? .object(object) : .object(self.response(object, produces: produces, declared: declaredProduces))
            }
            out["responses"] = .object(responses)
            return out
        }

        /// A query, path or header parameter: its type keywords move into `schema`.
        func parameter(_ parameter: JSONObject) -> JSONObject {
            var out = JSONObject()
            for key in ["name", "in", "description", "required", "allowEmptyValue"] { out[key] = parameter[key] }
            if parameter["in"]?.stringValue == "path" { out["required"] = .bool(true) }
            out["schema"] = .object(Self.schema(ofItem: parameter))
            switch parameter["collectionFormat"]?.stringValue {
            case "multi": out["style"] = .string("form"); out["explode"] = .bool(true)
            case "ssv": out["style"] = .string("spaceDelimited"); out["explode"] = .bool(false)
            case "pipes": out["style"] = .string("pipeDelimited"); out["explode"] = .bool(false)
            case "csv", "tsv": out["style"] = .string(parameter["in"]?.stringValue == "query" ? "form" : "simple"); out["explode"] = .bool(false)
            default:
                // 2.0's default for an array is csv.
                if parameter["type"]?.stringValue == "array" {
                    out["style"] = .string(parameter["in"]?.stringValue == "query" ? "form" : "simple")
                    out["explode"] = .bool(false)
                }
            }
            return out
        }

        /// The schema keywords of a non-body parameter or an `items` (2.0 writes them on the parameter itself).
        static func schema(ofItem item: JSONObject) -> JSONObject {
            var schema = JSONObject()
            for key in [
                "type", "format", "enum", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf", "x-nullable",
            ] {
                schema[key] = item[key]
            }
            if schema["type"] == .string("file") {
                schema["type"] = .string("string")
                schema["format"] = .string("binary")
            }
            if case .object(let items)? = item["items"] { schema["items"] = .object(Self.schema(ofItem: items)) }
            return schema
        }

        private func body(_ parameter: JSONObject, consumes: [String]) -> JSONObject {
            var out = JSONObject()
            out["description"] = parameter["description"]
            out["required"] = .bool(parameter["required"] == .bool(true))
            var content = JSONObject()
            for type in consumes where !type.hasPrefix("multipart/") && type != "application/x-www-form-urlencoded" {
                content[type] = .object(JSONObject([("schema", parameter["schema"] ?? .object(JSONObject()))]))
            }
            if content.isEmpty { content["application/json"] = .object(JSONObject([("schema", parameter["schema"] ?? .object(JSONObject()))])) }
            out["content"] = .object(content)
            return out
        }

        private func formBody(_ parameters: [JSONObject], consumes: [String]) -> JSONObject {
            var properties = JSONObject()
            var required: [JSONValue] = []
            for parameter in parameters {
                guard let name = parameter["name"]?.stringValue else { continue }
                var schema = Self.schema(ofItem: parameter)
                if let description = parameter["description"] { schema["description"] = description }
                properties[name] = .object(schema)
                if parameter["required"] == .bool(true) { required.append(.string(name)) }
            }
            var schema = JSONObject([("type", .string("object")), ("properties", .object(properties))])
            if !required.isEmpty { schema["required"] = .array(required) }
            let hasFile = parameters.contains { $0["type"] == .string("file") }
            let type = hasFile || consumes.contains("multipart/form-data") ? "multipart/form-data" : "application/x-www-form-urlencoded"
            return JSONObject([
                ("required", .bool(!required.isEmpty)),
                ("content", .object(JSONObject([(type, .object(JSONObject([("schema", .object(schema))])))]))),
            ])
        }

        func response(_ response: JSONObject, produces: [String], declared: [String]) -> JSONObject {
            var out = JSONObject()
            out["description"] = response["description"] ?? .string("")
            if case .object(let headers)? = response["headers"] {
                out["headers"] = .object(
                    JSONObject(
                        headers.members.compactMap { name, header in
                            guard case .object(let object) = header else { return nil }
                            var converted = JSONObject([("schema", .object(Self.schema(ofItem: object)))])
                            converted["description"] = object["description"]
                            return (name, .object(converted))
                        }))
            }
            let examples = response["examples"]?.objectValue ?? JSONObject()
            var content = JSONObject()
            if var schema = response["schema"] {
                var types = produces
                if schema.objectValue?["type"] == .string("file") {
                    schema = .object(JSONObject([("type", .string("string")), ("format", .string("binary"))]))
                    let binary = types.filter { !OperationTranslator.isJSON($0) }
                    types = binary.isEmpty ? ["application/octet-stream"] : binary
                }
                for type in types {
                    var media = JSONObject([("schema", schema)])
                    media["example"] = examples[type]
                    content[type] = .object(media)
                }
            }
            for (type, example) in examples.members where content[type] == nil {
                content[type] = .object(JSONObject([("example", example)]))
            }
            if content.isEmpty {
                // Swagger's `produces` is the type of every answer, one without a schema included.
                for type in declared { content[type] = .object(JSONObject()) }
            }
            if !content.isEmpty { out["content"] = .object(content) }
            return out
        }
    }
}
