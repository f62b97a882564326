import Foundation

/// The contract file's JSON, keys in the order the README documents them, defaults left out:
/// what `import`, `record` and `export` write, and what `ContractFile.decode` (`+Decoding`) reads back unchanged.
extension ContractFile {
    package var fileJSON: JSONValue {
        var root = FormatObject<ContractKey>()
        root[.schema] = schema.map(JSONValue.string)
        root[.name] = .string(name)
        root[.description] = description.map(JSONValue.string)
        root[.request] = .object(requestJSON)
        root[.responses] = .object(JSONObject(responses.map { ($0.name, .object($0.fileJSON)) }))
        root[.sequence] = sequence.map { .array($0.map(JSONValue.string)) }
        root[.refusal] = refusal.map(JSONValue.string)
        root[.resource] = resource.map { .object($0.fileJSON) }
        return .object(root.json)
    }

    private var requestJSON: JSONObject {
        var request = FormatObject<RequestKey>()
        request[.method] = .string(method.rawValue)
        request[.path] = .string(path)
        if !query.isEmpty { request[.query] = .object(JSONObject(query.map { ($0.name, .object($0.fileJSON)) })) }
        if !headers.isEmpty { request[.headers] = .object(JSONObject(headers.map { ($0.name, .object($0.fileJSON)) })) }
        request[.credentials] = credentials.map { .object($0.fileJSON) }
        request[.json] = json.map { .object(JSONObject($0.map { ($0.key, .object($0.fileJSON)) })) }
        request[.multipart] = multipart.map { .array($0.map { .object($0.fileJSON) }) }
        if !body.isDefault { request[.body] = .object(body.fileJSON) }
        request[.match] = match.map { .object($0.fileJSON) }
        request[.example] = example.map { .object($0.fileJSON) }
        return request.json
    }
}

extension BodyRules {
    var fileJSON: JSONObject {
        var rules = FormatObject<BodyRulesKey>()
        if !required { rules[.required] = false }
        if nullable { rules[.nullable] = true }
        if otherKeys { rules[.otherKeys] = true }
        if otherTypes { rules[.otherTypes] = true }
        rules[.contentTypes] = contentTypes.map { .array($0.map(JSONValue.string)) }
        rules[.oneOf] = oneOf.map { .array($0.map { .object($0.fileJSON) }) }
        rules[.anyOf] = anyOf.map { .array($0.map { .object($0.fileJSON) }) }
        return rules.json
    }
}

extension SetDefaults {
    /// `_defaults.json`; nil when there is nothing to write.
    package var fileJSON: JSONValue? {
        guard !query.isEmpty || !headers.isEmpty else { return nil }
        var root = FormatObject<DefaultsKey>()
        if !query.isEmpty { root[.query] = .object(JSONObject(query.map { ($0.name, .object($0.fileJSON)) })) }
        if !headers.isEmpty { root[.headers] = .object(JSONObject(headers.map { ($0.name, .object($0.fileJSON)) })) }
        return .object(root.json)
    }
}

extension ContractFile.Response {
    var fileJSON: JSONObject {
        var spec = FormatObject<ResponseKey>()
        spec[.status] = .int(status)
        spec[.fixture] = fixture.map(JSONValue.string)
        spec[.body] = body
        if !headers.isEmpty {
            // A header sent more than once (`Set-Cookie`) is one key with the values in order.
            var grouped: [(name: String, values: [String])] = []
            for header in headers {
                if let index = grouped.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                    grouped[index].values.append(header.value)
                } else {
                    grouped.append((header.name, [header.value]))
                }
            }
            spec[.headers] = .object(JSONObject(grouped.map { ($0.name, $0.values.count == 1 ? .string($0.values[0]) : .array($0.values.map(JSONValue.string))) }))
        }
        spec[.when] = when.map { .object($0.fileJSON) }
        spec[.delay] = delay?.fileJSON
        spec[.fault] = fault.map { .string($0.rawValue) }
        if !placeholders { spec[.placeholders] = false }
        spec[.schema] = shape.map { .object($0.fileJSON) }
        return spec.json
    }
}

extension QueryExpectation {
    var fileJSON: JSONObject {
        var spec = FormatObject<QueryKey>()
        if type != .string { spec[.type] = .string(type.rawValue) }
        if !required { spec[.required] = false }
        if let arrayStyle { spec[.array] = arrayStyle == .brackets ? true : .string(arrayStyle.rawValue) }
        if repeated { spec[.repeated] = true }
        if let enumValues { spec[.enum] = .array(enumValues.map { JSONValue.scalar($0, as: type) }) }
        if let nested {
            spec[.nested] = nested.keys.map { .array($0.map(JSONValue.string)) } ?? true
            if nested.plain { spec[.plain] = true }
        }
        return spec.json
    }
}

extension CredentialExpectation {
    var fileJSON: JSONObject {
        var object = FormatObject<CredentialsKey>()
        object[.anyOf] = .array(
            anyOf.map { credential in
                var spec = FormatObject<CredentialKey>()
                spec[credential.place == .header ? .header : .query] = .string(credential.name)
                spec[.prefix] = credential.prefix.map(JSONValue.string)
                return .object(spec.json)
            })
        object[.refusal] = refusal.map(JSONValue.string)
        return object.json
    }
}

extension HeaderExpectation {
    var fileJSON: JSONObject {
        var spec = FormatObject<HeaderKey>()
        if !required { spec[.required] = false }
        if prefixes.count == 1 { spec[.prefix] = .string(prefixes[0]) }
        if prefixes.count > 1 { spec[.prefix] = .array(prefixes.map(JSONValue.string)) }
        spec[.enum] = enumValues.map { .array($0.map(JSONValue.string)) }
        spec[.refusal] = refusal.map(JSONValue.string)
        return spec.json
    }
}

extension JSONKeyExpectation {
    /// The schema's keys with `required` where the table puts it (after `type`).
    var fileJSON: JSONObject {
        var spec = schema.fileSpec
        if !required { spec[.required] = false }
        return spec.json
    }
}

extension JSONValueSchema {
    /// An `items` schema (no `required`).
    var fileJSON: JSONObject { fileSpec.json }

    /// `type` is left out where it is the default, or implied by `properties` (object) or `items` (array).
    fileprivate var fileSpec: FormatObject<JSONSchemaKey> {
        var spec = FormatObject<JSONSchemaKey>()
        let implied: JSONValueType? = properties != nil ? .object : items != nil ? .array : nil
        if type != .any && type != implied { spec[.type] = .string(type.rawValue) }
        if nullable { spec[.nullable] = true }
        spec[.enum] = enumValues.map(JSONValue.array)
        spec[.properties] = properties.map { .object(JSONObject($0.map { ($0.key, .object($0.fileJSON)) })) }
        if otherKeys { spec[.otherKeys] = true }
        spec[.items] = items.map { .object($0.fileJSON) }
        spec[.minItems] = minItems.map(JSONValue.int)
        spec[.format] = format.map(JSONValue.string)
        spec[.oneOf] = oneOf.map { .array($0.map { .object($0.fileJSON) }) }
        spec[.anyOf] = anyOf.map { .array($0.map { .object($0.fileJSON) }) }
        return spec
    }
}

extension PartExpectation {
    var fileJSON: JSONObject {
        var spec = FormatObject<PartKey>()
        spec[.name] = .string(name)
        if !required { spec[.required] = false }
        if !filename { spec[.filename] = false }
        spec[.contentTypes] = contentTypes.map { .array($0.map(JSONValue.string)) }
        spec[.maxBytes] = maxBytes.map(JSONValue.int)
        if checkBytes { spec[.checkBytes] = true }
        return spec.json
    }
}

extension RequestMatch {
    var fileJSON: JSONObject {
        var spec = FormatObject<MatchKey>()
        if !query.isEmpty { spec[.query] = .object(JSONObject(query.map { ($0.name, .string($0.value)) })) }
        if !json.isEmpty { spec[.json] = .object(JSONObject(json.map { ($0.key, $0.value) })) }
        spec[.contentType] = contentType.map(JSONValue.string)
        return spec.json
    }
}

extension Latency {
    var fileJSON: JSONValue {
        switch self {
        case .fixed(let milliseconds): .number(milliseconds)
        case .uniform(let low, let high): .object(JSONObject([(UniformDelayKey.min.rawValue, .number(low)), (UniformDelayKey.max.rawValue, .number(high))]))
        case .logNormal(let median, let sigma):
            .object(JSONObject([(LogNormalDelayKey.median.rawValue, .number(median)), (LogNormalDelayKey.sigma.rawValue, .number(sigma))]))
        }
    }
}

extension RequestExample {
    /// Path values, query and headers (a key sent several times as an array), JSON body.
    var fileJSON: JSONObject {
        func grouped(_ pairs: [Pair]) -> JSONValue {
            var order: [String] = []
            var values: [String: [String]] = [:]
            for pair in pairs {
                if values[pair.name] == nil { order.append(pair.name) }
                values[pair.name, default: []].append(pair.value)
            }
            return .object(
                JSONObject(
                    order.map { name in
                        let all = values[name]!
                        return (name, all.count == 1 ? .string(all[0]) : .array(all.map(JSONValue.string)))
                    }))
        }
        var object = FormatObject<ExampleKey>()
        if !path.isEmpty { object[.path] = .object(JSONObject(path.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        if !query.isEmpty { object[.query] = grouped(query) }
        if !headers.isEmpty { object[.headers] = grouped(headers) }
        object[.json] = self.json
        return object.json
    }
}

extension JSONValue {
    /// A whole number as an int (`800`, not `800.0`), so a written file reads as a person writes it.
    fileprivate static func number(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 9e15 ? .int(Int(value)) : .double(value)
    }

    /// A query value as the JSON scalar its type reads as: `10` for an int, `"10"` for a string.
    fileprivate static func scalar(_ text: String, as type: QueryValueType) -> JSONValue {
        switch type {
        case .int: Int(text).flatMap { String($0) == text ? JSONValue.int($0) : nil } ?? .string(text)
        case .number: Int(text).flatMap { String($0) == text ? JSONValue.int($0) : nil } ?? .string(text)
        case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .string: .string(text)
        }
    }
}
