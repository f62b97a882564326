import MockAPICore

extension OpenAPIExporter {
    static func parameters(_ request: RequestExpectation) -> [JSONValue] {
        var result: [JSONValue] = []
        for segment in request.path.segments {
            guard case .parameter(let name, let type) = segment else { continue }
            // An int segment is at most 18 digits with an optional sign: bounds keep generated values routable.
            let schema: JSONValue = type == .int
                ? ["type": "integer", "format": "int64", "minimum": .int(-999_999_999_999_999_999), "maximum": .int(999_999_999_999_999_999)]
                : ["type": "string", "pattern": "^[^/]+$"]
            result.append(.object(JSONObject([("name", .string(name)), ("in", "path"), ("required", true), ("schema", schema)])))
        }
        for query in request.query {
            let scalar = queryScalar(query.type)
            // A contract's array is sent as `key[]=a&key[]=b`: that bracketed name is the parameter.
            let schema: JSONValue = query.array ? ["type": "array", "items": scalar] : scalar
            result.append(.object(JSONObject([("name", .string(query.array ? query.name + "[]" : query.name)), ("in", "query"),
                                              ("required", .bool(query.required)), ("schema", schema)])))
        }
        for header in request.headers where !isAuthorization(header.name) {
            var schema = JSONObject([("type", "string")])
            if !header.prefixes.isEmpty {
                schema["pattern"] = .string("^(" + header.prefixes.map(regexEscaped).joined(separator: "|") + ")")
            }
            result.append(.object(JSONObject([("name", .string(header.name)), ("in", "header"), ("required", .bool(header.required)),
                                              ("schema", .object(schema))])))
        }
        return result
    }

    static func requestBody(_ request: RequestExpectation) -> JSONObject? {
        if let keys = request.json {
            let schema = objectSchema(keys.map { ($0.key, valueSchema($0.type), $0.required) })
            return JSONObject([("required", true), ("content", ["application/json": ["schema": schema]])])
        }
        if let parts = request.multipart {
            let schema = objectSchema(parts.map { part in
                (part.name, part.filename ? ["type": "string", "format": "binary"] : ["type": "string"], part.required)
            })
            var media = JSONObject([("schema", schema)])
            let encoding = parts.compactMap { part -> (String, JSONValue)? in
                guard let types = part.contentTypes, !types.isEmpty else { return nil }
                return (part.name, ["contentType": .string(types.joined(separator: ", "))])
            }
            if !encoding.isEmpty { media["encoding"] = .object(JSONObject(encoding)) }
            return JSONObject([("required", true), ("content", .object(JSONObject([("multipart/form-data", .object(media))])))])
        }
        return nil
    }

    /// The `Authorization` header a contract checks, as a security scheme: `Bearer ` and `Basic `
    /// prefixes are HTTP schemes; any other (`token `) is an API key in that header.
    static func securityScheme(_ request: RequestExpectation) -> (name: String, definition: JSONObject)? {
        guard let header = request.headers.first(where: { isAuthorization($0.name) && $0.required }) else { return nil }
        // Several accepted prefixes: the first names the scheme.
        let prefix = header.prefixes.first
        switch prefix?.lowercased() {
        case "bearer "?: return ("bearer", JSONObject([("type", "http"), ("scheme", "bearer")]))
        case "basic "?: return ("basic", JSONObject([("type", "http"), ("scheme", "basic")]))
        case let lowered?:
            return (Naming.snakeCase(lowered) + "_authorization",
                    JSONObject([("type", "apiKey"), ("in", "header"), ("name", .string(header.name)),
                                ("description", .string("Authorization: \(prefix ?? "")…"))]))
        case nil:
            return ("authorization", JSONObject([("type", "apiKey"), ("in", "header"), ("name", .string(header.name))]))
        }
    }

    private static func isAuthorization(_ name: String) -> Bool { name.lowercased() == "authorization" }

    /// Contracts refuse keys they do not name, hence `additionalProperties: false`.
    private static func objectSchema(_ properties: [(String, JSONValue, Bool)]) -> JSONValue {
        var schema = JSONObject([("type", "object"), ("properties", .object(JSONObject(properties.map { ($0.0, $0.1) })))])
        let required = properties.filter(\.2).map { JSONValue.string($0.0) }
        if !required.isEmpty { schema["required"] = .array(required) }
        schema["additionalProperties"] = false
        return .object(schema)
    }

    private static func queryScalar(_ type: QueryValueType) -> JSONValue {
        switch type {
        case .string: ["type": "string"]
        case .int: ["type": "integer", "format": "int64", "minimum": .int(Int.min), "maximum": .int(Int.max)]
        case .number: ["type": "number"]
        case .bool: ["type": "boolean"]
        }
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
