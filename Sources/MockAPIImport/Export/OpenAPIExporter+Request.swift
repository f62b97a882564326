import MockAPICore

extension OpenAPIExporter {
    static func parameters(_ request: RequestExpectation) -> [JSONValue] {
        var result: [JSONValue] = []
        for segment in request.path.segments {
            guard case .parameter(let name, let type) = segment else { continue }
            // An int segment takes any Int64; a string or path segment is at least one character.
            let schema: JSONValue =
                type == .int
                ? ["type": "integer", "format": "int64", "minimum": .int(Int.min), "maximum": .int(Int.max)]
                : ["type": "string", "pattern": "^[^/]+$"]
            result.append(.object(JSONObject([("name", .string(name)), ("in", "path"), ("required", true), ("schema", schema)])))
        }
        for query in request.query {
            if query.nested != nil {
                result.append(.object(deepObjectParameter(query)))
                continue
            }
            var scalar = queryScalar(query.type)
            if let values = query.enumValues { scalar["enum"] = .array(values.map { queryValue($0, query.type) }) }
            // A bracketed list is sent as `key[]=a&key[]=b`: that bracketed name is the parameter.
            let schema: JSONObject = query.array ? JSONObject([("type", "array"), ("items", .object(scalar))]) : scalar
            var parameter = JSONObject([
                ("name", .string(query.arrayStyle == .brackets ? query.name + "[]" : query.name)), ("in", "query"),
                ("required", .bool(query.required)), ("schema", .object(schema)),
            ])
            if query.arrayStyle == .comma { parameter["explode"] = false }
            result.append(.object(parameter))
        }
        for header in request.headers where !isAuthorization(header.name) {
            var schema = JSONObject([("type", "string")])
            if !header.prefixes.isEmpty {
                schema["pattern"] = .string("^(" + header.prefixes.map(regexEscaped).joined(separator: "|") + ")")
            }
            result.append(
                .object(
                    JSONObject([
                        ("name", .string(header.name)), ("in", "header"), ("required", .bool(header.required)),
                        ("schema", .object(schema)),
                    ])))
        }
        return result
    }

    /// A key with nested parts as a deepObject: a list of scalars, or an object whose keys are the
    /// contract's part names (closed) or any (open), `anyOf` a scalar when the bare key comes too.
    /// Required: not empty (an empty object or list is sent as no key at all).
    private static func deepObjectParameter(_ query: QueryExpectation) -> JSONObject {
        var scalar = queryScalar(query.type)
        if let values = query.enumValues { scalar["enum"] = .array(values.map { queryValue($0, query.type) }) }
        var schema: JSONObject
        if query.array {
            schema = JSONObject([("type", "array"), ("items", .object(scalar))])
            if query.required { schema["minItems"] = 1 }
        } else {
            let keys = query.nested?.keys
            schema = JSONObject([("type", "object")])
            if let keys { schema["properties"] = .object(JSONObject(keys.map { ($0, .object(scalar)) })) }
            schema["additionalProperties"] = keys == nil ? .object(scalar) : false
            if query.required { schema["minProperties"] = 1 }
            if query.nested?.plain == true { schema = JSONObject([("anyOf", [.object(schema), .object(scalar)])]) }
        }
        return JSONObject([
            ("name", .string(query.name)), ("in", "query"), ("required", .bool(query.required)),
            ("style", "deepObject"), ("explode", true), ("schema", .object(schema)),
        ])
    }

    /// The JSON body, the multipart body, or both (a contract with both takes either), and every
    /// other media type the contract lists: JSON types and a form with the keys' schema, the
    /// types taken unread as binary strings.
    static func requestBody(_ request: RequestExpectation) -> JSONObject? {
        var content = JSONObject()
        var keysSchema: JSONValue?
        if let keys = request.json {
            var schema = objectSchema(keys.map { ($0.key, valueSchema($0.schema), $0.required) }, otherKeys: request.body.takesOtherKeys)
            // The objects it may be, beside the keys every one has (the options close it, not `additionalProperties`).
            if let (keyword, options) = request.body.branches, var object = schema.objectValue {
                object[keyword] = .array(options.map(valueSchema))
                schema = .object(object)
            }
            if request.body.otherTypes, var object = schema.objectValue {
                object["type"] = nil // no type: properties apply to objects, any other type passes
                schema = .object(object)
            }
            if request.body.nullable { schema = ["anyOf": [schema, ["type": "null"]]] }
            keysSchema = schema
        }
        for type in request.body.contentTypes ?? (keysSchema != nil ? ["application/json"] : []) {
            if let keysSchema, request.body.readsJSON(type) || request.body.readsForm(type) {
                content[type] = ["schema": keysSchema]
            } else {
                content[type] = ["schema": type == "multipart/form-data" ? ["type": "object"] : ["type": "string", "format": "binary"]]
            }
        }
        if let multipart = multipartContent(request) { content["multipart/form-data"] = .object(multipart) }
        guard !content.isEmpty else { return nil }
        return JSONObject([("required", .bool(request.body.required)), ("content", .object(content))])
    }

    private static func multipartContent(_ request: RequestExpectation) -> JSONObject? {
        if let parts = request.multipart {
            let schema = objectSchema(
                parts.map { part in
                    (part.name, part.filename ? ["type": "string", "format": "binary", Self.filenameExtension: true] : ["type": "string"], part.required)
                })
            var media = JSONObject([("schema", schema)])
            let encoding = parts.compactMap { part -> (String, JSONValue)? in
                guard let types = part.contentTypes, !types.isEmpty else { return nil }
                return (part.name, ["contentType": .string(types.joined(separator: ", "))])
            }
            if !encoding.isEmpty { media["encoding"] = .object(JSONObject(encoding)) }
            return media
        }
        return nil
    }

    /// The `Authorization` header a contract checks, as a security scheme: `Bearer ` and `Basic `
    /// prefixes are HTTP schemes; any other (`token `) is an API key in that header.
    static func securityScheme(_ request: RequestExpectation) -> (name: String, definition: JSONObject)? {
        guard let header = request.headers.first(where: { isAuthorization($0.name) && $0.required }) else { return nil }
        // Several accepted prefixes: the first names the scheme.
        return headerScheme(name: header.name, prefix: header.prefixes.first)
    }

    /// One of a contract's `credentials` as a security scheme: a query key or a header as an API
    /// key, `Basic `/`Bearer ` as HTTP schemes.
    static func securityScheme(_ credential: CredentialExpectation.Credential) -> (name: String, definition: JSONObject) {
        switch credential.place {
        case .query:
            (Naming.snakeCase(credential.name) + "_query", JSONObject([("type", "apiKey"), ("in", "query"), ("name", .string(credential.name))]))
        case .header where isAuthorization(credential.name):
            headerScheme(name: credential.name, prefix: credential.prefix)
        case .header:
            (Naming.snakeCase(credential.name) + "_header", JSONObject([("type", "apiKey"), ("in", "header"), ("name", .string(credential.name))]))
        }
    }

    private static func headerScheme(name: String, prefix: String?) -> (name: String, definition: JSONObject) {
        switch prefix?.lowercased() {
        case "bearer "?: return ("bearer", JSONObject([("type", "http"), ("scheme", "bearer")]))
        case "basic "?: return ("basic", JSONObject([("type", "http"), ("scheme", "basic")]))
        case let lowered?:
            return (
                Naming.snakeCase(lowered) + "_authorization",
                JSONObject([
                    ("type", "apiKey"), ("in", "header"), ("name", .string(name)),
                    ("description", .string("Authorization: \(prefix ?? "")…")),
                ])
            )
        case nil:
            return ("authorization", JSONObject([("type", "apiKey"), ("in", "header"), ("name", .string(name))]))
        }
    }

    private static func isAuthorization(_ name: String) -> Bool { name.lowercased() == "authorization" }

    /// Contracts refuse keys they do not name unless told `otherKeys`, hence `additionalProperties`.
    private static func objectSchema(_ properties: [(String, JSONValue, Bool)], otherKeys: Bool = false) -> JSONValue {
        var schema = JSONObject([("type", "object"), ("properties", .object(JSONObject(properties.map { ($0.0, $0.1) })))])
        let required = properties.filter(\.2).map { JSONValue.string($0.0) }
        if !required.isEmpty { schema["required"] = .array(required) }
        schema["additionalProperties"] = .bool(otherKeys)
        return .object(schema)
    }

    private static func queryValue(_ text: String, _ type: QueryValueType) -> JSONValue {
        switch type {
        case .int: Int(text).map(JSONValue.int) ?? .string(text)
        case .number: Double(text).map(JSONValue.double) ?? .string(text)
        case .bool: ["true", "1"].contains(text) ? .bool(true) : .bool(false)
        case .string: .string(text)
        }
    }

    private static func queryScalar(_ type: QueryValueType) -> JSONObject {
        let schema: JSONValue =
            switch type {
            case .string: ["type": "string"]
            case .int: ["type": "integer", "format": "int64", "minimum": .int(Int.min), "maximum": .int(Int.max)]
            case .number: ["type": "number"]
            case .bool: ["type": "boolean"]
            }
        return schema.objectValue!
    }

    /// A value's schema with its enum, an object's keys and an array's elements, at any depth.
    static func valueSchema(_ schema: JSONValueSchema) -> JSONValue {
        let described = describedSchema(schema)
        return schema.nullable ? ["anyOf": [described, ["type": "null"]]] : described
    }

    private static func describedSchema(_ schema: JSONValueSchema) -> JSONValue {
        if let properties = schema.properties {
            return objectSchema(properties.map { ($0.key, valueSchema($0.schema), $0.required) }, otherKeys: schema.otherKeys)
        }
        var result = valueSchema(schema.type).objectValue ?? JSONObject()
        if let enumValues = schema.enumValues { result["enum"] = .array(enumValues) }
        if let items = schema.items { result["items"] = valueSchema(items) }
        if let minItems = schema.minItems { result["minItems"] = .int(minItems) }
        if let (keyword, options) = schema.branches { result[keyword] = .array(options.map(valueSchema)) }
        if let format = schema.format {
            result["format"] = .string(format)
            // An int32 is not every 64-bit integer.
            if format == "int32" { (result["minimum"], result["maximum"]) = (.int(Int(Int32.min)), .int(Int(Int32.max))) }
        }
        return .object(result)
    }

    private static func valueSchema(_ type: JSONValueType) -> JSONValue {
        switch type {
        case .string: ["type": "string"]
        // mockapi reads a JSON integer beyond 64 bits as a fraction, which an `int` key refuses.
        case .int: ["type": "integer", "format": "int64", "minimum": .int(Int.min), "maximum": .int(Int.max)]
        case .number: ["type": "number"]
        case .bool: ["type": "boolean"]
        case .object: ["type": "object"]
        case .array: ["type": "array"]
        case .null: ["type": "null"]
        case .any: [:]
        }
    }

    private static func regexEscaped(_ text: String) -> String {
        text.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined()
    }
}
