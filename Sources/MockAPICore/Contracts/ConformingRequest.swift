package import Foundation

/// A request that satisfies a contract, made from the contract alone: its `request.example` where
/// the contract has one, otherwise values the contract itself allows (an enum's first value, `1`
/// for an int), with every guess noted so a failure caused by one (a 404 for a made-up id) is easy
/// to read. What `verify-backend` sends, what the server tests send to every bundled route, and
/// what the verify benchmark's gate asks for: one builder, so the three agree.
package struct ConformingRequest: Sendable {
    package var method: RequestMethod
    /// From the leading `/`, each path value percent-encoded.
    package var path: String
    /// In order, not yet encoded.
    package var query: [HTTPField]
    /// In order, one per name (compared without case), as `URLRequest.setValue` leaves them.
    package var headers: [HTTPField]
    package var body: Data?
    /// What had to be made up: "path projectId = 1 (no request.example)".
    package var guesses: [String]
    /// The environment variables a `[redacted]` value of the example needed and did not find
    /// (`MOCKAPI_SECRET_PASSWORD`): the request must not be sent, or the backend would take the
    /// marker for data (a password changed to `[redacted]`).
    package var missingSecrets: [String] = []
    /// The value sent for each path parameter, by name.
    package var pathValues: [String: String] = [:]

    /// The path and the encoded query, as a request line names them: `/v1/items/1?page=2`.
    package var target: String {
        guard !query.isEmpty else { return path }
        var components = URLComponents()
        components.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) }
        return path + "?" + (components.percentEncodedQuery ?? "")
    }

    /// The URL of this request sent to `baseURL`: its path after the base URL's own
    /// (`https://api.example.com/v2` keeps `/v2`), the query encoded as `URLComponents` encodes it.
    package func url(baseURL: URL) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let base = components.percentEncodedPath
        components.percentEncodedPath = (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.name, value: $0.value) }
        return components.url!
    }

    /// - Parameters:
    ///   - extraHeaders: sent first and never replaced by a made-up value (`--header`).
    ///   - secrets: `MOCKAPI_SECRET_*` variables, by name: the real values of what `record` and
    ///     `import har` wrote as `[redacted]`.
    ///   - partContent: the bytes of every multipart part.
    ///   - pathOverrides: path values that win over the example's (an id a list of the backend's
    ///     own answered with, when the example's was not one it knows).
    package init(
        contract: Contract, headers extraHeaders: [HTTPField] = [], secrets: [String: String] = [:],
        partContent: Data = Data("example".utf8), boundary: String = "mockapi-verify-backend-\(UUID().uuidString)",
        pathOverrides: [String: String] = [:]
    ) {
        let expectation = contract.request
        var example = expectation.example
        var guesses: [String] = []
        var missing: [String] = []
        if let json = example?.json {
            let types = Dictionary((expectation.json ?? []).map { ($0.key, $0.schema.type) }, uniquingKeysWith: { a, _ in a })
            example?.json = Self.filling(json, key: nil, types: types, secrets: secrets, missing: &missing)
        }
        if let query = example?.query {
            example?.query = query.map { pair in
                // A value that holds the marker (`q=[redacted]`, `note=pw [redacted]`) is taken whole from the variable.
                guard pair.value.contains(CredentialKeys.marker) else { return pair }
                let name = CredentialKeys.environmentName(forKey: pair.name)
                guard let value = secrets[name] else {
                    missing.append(name)
                    return pair
                }
                return RequestExample.Pair(pair.name, value)
            }
        }

        var path = ""
        var pathValues: [String: String] = [:]
        for segment in expectation.path.segments {
            switch segment {
            case .literal(let text):
                path += "/" + text
            case .parameter(let name, let type):
                let value = pathOverrides[name] ?? example?.path[name] ?? (type == .int ? "1" : "example")
                if pathOverrides[name] == nil, example?.path[name] == nil { guesses.append("path \(name) = \(value)") }
                pathValues[name] = value
                path += "/" + (value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value)
            }
        }
        if expectation.path.segments.isEmpty { path = "/" }

        // A bracket list's values go out as the list they are (`categories[]=a`), not as a plain key.
        var query: [HTTPField] = (example?.query ?? []).map { pair in
            guard let key = expectation.query.first(where: { $0.name == pair.name }), key.arrayStyle == .brackets else { return pair }
            return HTTPField(pair.name + "[]", pair.value)
        }
        for key in expectation.query where key.required && !query.contains(where: { $0.name == key.name || $0.name.hasPrefix(key.name + "[") }) {
            let value = Self.sample(key)
            let name = Self.sentName(key)
            guesses.append("query \(name) = \(value)")
            query.append(HTTPField(name, value))
        }

        // One of several credentials: the first, unless --header or the example gives one.
        let given = Set((extraHeaders.map(\.name) + (example?.headers.map(\.name) ?? [])).map { $0.lowercased() })
        var credentialHeader: HTTPField?
        if let credentials = expectation.credentials, let first = credentials.anyOf.first,
            !credentials.anyOf.contains(where: { credential in
                credential.place == .header ? given.contains(credential.name.lowercased()) : query.contains { $0.name == credential.name }
            })
        {
            let value = (first.prefix ?? "") + "example"
            guesses.append("\(first.place.rawValue) \(first.name) = \(value) (pass a real credential with --header)")
            if first.place == .query { query.append(HTTPField(first.name, value)) } else { credentialHeader = HTTPField(first.name, value) }
        }

        var headers: [HTTPField] = []
        func set(_ name: String, _ value: String) {
            if let index = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                headers[index].value = value
            } else {
                headers.append(HTTPField(name, value))
            }
        }
        var sent: Set<String> = []
        for header in extraHeaders + (example?.headers ?? []) where !sent.contains(header.name.lowercased()) {
            set(header.name, header.value)
            sent.insert(header.name.lowercased())
        }
        if let credentialHeader { set(credentialHeader.name, credentialHeader.value) }
        for header in expectation.headers where header.required && !sent.contains(header.name.lowercased()) {
            let value = header.enumValues?.first ?? (header.prefixes.first.map { $0 + "example" } ?? "example")
            guesses.append("header \(header.name) = \(value) (pass a real one with --header)")
            set(header.name, value)
        }

        var body: Data?
        let types = expectation.body.contentTypes
        let jsonType = types.map { $0.first(where: expectation.body.readsJSON) } ?? "application/json"
        if let keys = expectation.json, let jsonType {
            let json = example?.json ?? Self.sample(keys, expectation.body)
            if example?.json == nil { guesses.append("JSON body made from the contract's keys") }
            set("Content-Type", jsonType)
            body = Data(json.serialized.utf8)
        } else if let keys = expectation.json, types?.contains(MediaType.form) == true {
            guesses.append("form body made from the contract's keys")
            set("Content-Type", MediaType.form)
            body = Data(Self.form(example?.json ?? Self.sample(keys, expectation.body)).utf8)
        } else if expectation.multipart == nil, let json = example?.json, types?.contains(where: { !expectation.body.readsJSON($0) }) != true {
            // A recorded example's JSON body, its keys unchecked (the path also saw other bodies):
            // sent as the JSON it was, with the type that says so.
            set("Content-Type", jsonType ?? "application/json")
            body = Data(json.serialized.utf8)
        } else if expectation.multipart == nil, let type = types?.first {
            guesses.append("\(type) body made up (\"example\")")
            set("Content-Type", type)
            body = Data("example".utf8)
        } else if let parts = expectation.multipart {
            set("Content-Type", "multipart/form-data; boundary=\(boundary)")
            body = Self.multipart(parts, content: partContent, boundary: boundary)
            guesses.append("multipart parts made from the contract (a few bytes each)")
        }
        method = expectation.method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.guesses = guesses
        self.pathValues = pathValues
        var distinct: [String] = []
        for name in missing where !distinct.contains(name) { distinct.append(name) }
        missingSecrets = distinct
    }

    /// Every `[redacted]` string under a key replaced by its `MOCKAPI_SECRET_<KEY>` variable's value
    /// (a number where the contract types that top-level key as one); each missing variable noted.
    private static func filling(
        _ value: JSONValue, key: String?, types: [String: JSONValueType], secrets: [String: String], missing: inout [String]
    ) -> JSONValue {
        switch value {
        case .string(let text) where text.contains(CredentialKeys.marker):
            let name = CredentialKeys.environmentName(forKey: key ?? "value")
            guard let secret = secrets[name] else {
                missing.append(name)
                return value
            }
            switch key.flatMap({ types[$0] }) {
            case .int?: if let number = Int(secret) { return .int(number) }
            case .number?: if let number = Double(secret) { return .double(number) }
            default: break
            }
            return .string(secret)
        case .array(let items):
            return .array(items.map { filling($0, key: key, types: [:], secrets: secrets, missing: &missing) })
        case .object(let object):
            return .object(JSONObject(object.members.map { ($0.key, filling($0.value, key: $0.key, types: key == nil ? types : [:], secrets: secrets, missing: &missing)) }))
        default:
            return value
        }
    }

    /// The name a made-up value goes under: `ids[]` for a bracketed list, `created[gt]` for a key
    /// that takes only nested parts, the bare name otherwise.
    private static func sentName(_ key: QueryExpectation) -> String {
        if let nested = key.nested, !nested.plain, !key.array { return "\(key.name)[\(nested.keys?.first ?? "key")]" }
        return key.arrayStyle == .brackets ? key.name + "[]" : key.name
    }

    private static func sample(_ key: QueryExpectation) -> String {
        if let first = key.enumValues?.first { return first }
        return switch key.type {
        case .int, .number: "1"
        case .bool: "true"
        case .string: "example"
        }
    }

    /// The keys every body has, and the first option's when the body has options.
    private static func sample(_ keys: [JSONKeyExpectation], _ rules: BodyRules) -> JSONValue {
        JSONValueSchema(type: .object, properties: keys, oneOf: rules.oneOf, anyOf: rules.anyOf).sample
    }

    /// A JSON object's members as form fields (`a=1&b=x`), each scalar as its text.
    private static func form(_ body: JSONValue) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return (body.objectValue?.members ?? []).map { key, value in
            let text: String = if case .string(let string) = value { string } else { value.serialized }
            return "\(key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key)=\(text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)"
        }.joined(separator: "&")
    }

    private static func multipart(_ parts: [PartExpectation], content: Data, boundary: String) -> Data {
        var body = Data()
        for part in parts where part.required {
            let type = part.contentTypes?.first ?? "application/octet-stream"
            let filename = part.filename ? "; filename=\"example.\(type.split(separator: "/").last ?? "bin")\"" : ""
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(filename)\r\nContent-Type: \(type)\r\n\r\n".utf8)
            body += content + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return body
    }
}
