import Foundation

/// The contract file's JSON, keys in the order the README documents them, defaults left out:
/// what `import`, `record` and `export` write, and what `ContractFile.decode` (`+Decoding`) reads back unchanged.
extension ContractFile {
    package var fileJSON: JSONValue {
        var root = JSONObject()
        if let schema { root["$schema"] = .string(schema) }
        root["name"] = .string(name)
        if let description { root["description"] = .string(description) }
        root["request"] = .object(requestJSON)
        root["responses"] = .object(JSONObject(responses.map { ($0.name, .object($0.fileJSON)) }))
        if let sequence { root["sequence"] = .array(sequence.map(JSONValue.string)) }
        if let refusal { root["refusal"] = .string(refusal) }
        return .object(root)
    }

    private var requestJSON: JSONObject {
        var request = JSONObject([("method", .string(method.rawValue)), ("path", .string(path))])
        if !query.isEmpty { request["query"] = .object(JSONObject(query.map { ($0.name, .object($0.fileJSON)) })) }
        if !headers.isEmpty { request["headers"] = .object(JSONObject(headers.map { ($0.name, .object($0.fileJSON)) })) }
        if let credentials { request["credentials"] = .object(credentials.fileJSON) }
        if let json { request["json"] = .object(JSONObject(json.map { ($0.key, .object($0.fileJSON)) })) }
        if let multipart { request["multipart"] = .array(multipart.map { .object($0.fileJSON) }) }
        if !body.isDefault {
            var rules = JSONObject()
            if !body.required { rules["required"] = false }
            if body.nullable { rules["nullable"] = true }
            if body.otherKeys { rules["otherKeys"] = true }
            if body.otherTypes { rules["otherTypes"] = true }
            if let contentTypes = body.contentTypes { rules["contentTypes"] = .array(contentTypes.map(JSONValue.string)) }
            request["body"] = .object(rules)
        }
        if let match { request["match"] = .object(match.fileJSON) }
        if let example { request["example"] = .object(example.fileJSON) }
        return request
    }
}

extension SetDefaults {
    /// `_defaults.json`; nil when there is nothing to write.
    package var fileJSON: JSONValue? {
        guard !query.isEmpty || !headers.isEmpty else { return nil }
        var root = JSONObject()
        if !query.isEmpty { root["query"] = .object(JSONObject(query.map { ($0.name, .object($0.fileJSON)) })) }
        if !headers.isEmpty { root["headers"] = .object(JSONObject(headers.map { ($0.name, .object($0.fileJSON)) })) }
        return .object(root)
    }
}

extension ContractFile.Response {
    var fileJSON: JSONObject {
        var spec = JSONObject([("status", .int(status))])
        if let fixture { spec["fixture"] = .string(fixture) }
        if let body { spec["body"] = body }
        if !headers.isEmpty { spec["headers"] = .object(JSONObject(headers.map { ($0.name, .string($0.value)) })) }
        if let when { spec["when"] = .object(when.fileJSON) }
        if let delay { spec["delay"] = delay.fileJSON }
        if let fault { spec["fault"] = .string(fault.rawValue) }
        if !placeholders { spec["placeholders"] = false }
        return spec
    }
}

extension QueryExpectation {
    var fileJSON: JSONObject {
        var spec = JSONObject()
        if type != .string { spec["type"] = .string(type.rawValue) }
        if !required { spec["required"] = false }
        if let arrayStyle { spec["array"] = arrayStyle == .brackets ? true : .string(arrayStyle.rawValue) }
        if repeated { spec["repeated"] = true }
        if let enumValues { spec["enum"] = .array(enumValues.map { JSONValue.scalar($0, as: type) }) }
        if let nested {
            spec["nested"] = nested.keys.map { .array($0.map(JSONValue.string)) } ?? true
            if nested.plain { spec["plain"] = true }
        }
        return spec
    }
}

extension CredentialExpectation {
    var fileJSON: JSONObject {
        var object = JSONObject([
            (
                "anyOf",
                .array(
                    anyOf.map { credential in
                        var spec = JSONObject([(credential.place.rawValue, .string(credential.name))])
                        if let prefix = credential.prefix { spec["prefix"] = .string(prefix) }
                        return .object(spec)
                    })
            )
        ])
        if let refusal { object["refusal"] = .string(refusal) }
        return object
    }
}

extension HeaderExpectation {
    var fileJSON: JSONObject {
        var spec = JSONObject()
        if !required { spec["required"] = false }
        if prefixes.count == 1 { spec["prefix"] = .string(prefixes[0]) }
        if prefixes.count > 1 { spec["prefix"] = .array(prefixes.map(JSONValue.string)) }
        if let enumValues { spec["enum"] = .array(enumValues.map(JSONValue.string)) }
        if let refusal { spec["refusal"] = .string(refusal) }
        return spec
    }
}

extension JSONKeyExpectation {
    /// `type`, `required`, then the rest of the schema, as the README lists them.
    var fileJSON: JSONObject {
        let schema = schema.fileJSON
        guard !required else { return schema }
        var spec = JSONObject(schema.members.prefix { $0.key == "type" }.map { ($0.key, $0.value) })
        spec["required"] = false
        for member in schema.members where member.key != "type" { spec[member.key] = member.value }
        return spec
    }
}

extension JSONValueSchema {
    /// `type` is left out where it is the default, or implied by `properties` (object) or `items` (array).
    var fileJSON: JSONObject {
        var spec = JSONObject()
        let implied: JSONValueType? = properties != nil ? .object : items != nil ? .array : nil
        if type != .any && type != implied { spec["type"] = .string(type.rawValue) }
        if nullable { spec["nullable"] = true }
        if let enumValues { spec["enum"] = .array(enumValues) }
        if let properties { spec["properties"] = .object(JSONObject(properties.map { ($0.key, .object($0.fileJSON)) })) }
        if otherKeys { spec["otherKeys"] = true }
        if let items { spec["items"] = .object(items.fileJSON) }
        return spec
    }
}

extension PartExpectation {
    var fileJSON: JSONObject {
        var spec = JSONObject([("name", .string(name))])
        if !required { spec["required"] = false }
        if !filename { spec["filename"] = false }
        if let contentTypes { spec["contentTypes"] = .array(contentTypes.map(JSONValue.string)) }
        if let maxBytes { spec["maxBytes"] = .int(maxBytes) }
        return spec
    }
}

extension RequestMatch {
    var fileJSON: JSONObject {
        var spec = JSONObject()
        if !query.isEmpty { spec["query"] = .object(JSONObject(query.map { ($0.name, .string($0.value)) })) }
        if !json.isEmpty { spec["json"] = .object(JSONObject(json.map { ($0.key, $0.value) })) }
        return spec
    }
}

extension Latency {
    var fileJSON: JSONValue {
        switch self {
        case .fixed(let milliseconds): .number(milliseconds)
        case .uniform(let low, let high): .object(JSONObject([("min", .number(low)), ("max", .number(high))]))
        case .logNormal(let median, let sigma): .object(JSONObject([("median", .number(median)), ("sigma", .number(sigma))]))
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
        var object = JSONObject()
        if !path.isEmpty { object["path"] = .object(JSONObject(path.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        if !query.isEmpty { object["query"] = grouped(query) }
        if !headers.isEmpty { object["headers"] = grouped(headers) }
        if let body = self.json { object["json"] = body }
        return object
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
