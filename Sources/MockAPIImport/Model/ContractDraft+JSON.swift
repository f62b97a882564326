import MockAPICore

extension ContractDraft {
    /// The contract file, keys in the order the README documents them; defaults are left out.
    public var contractJSON: JSONValue {
        var request = JSONObject()
        request["method"] = .string(method.rawValue)
        request["path"] = .string(path)
        if !query.isEmpty {
            request["query"] = .object(JSONObject(query.map { query in
                var spec = JSONObject()
                if query.type != .string { spec["type"] = .string(query.type.rawValue) }
                if !query.required { spec["required"] = false }
                if query.array { spec["array"] = true }
                return (query.name, .object(spec))
            }))
        }
        if !headers.isEmpty {
            request["headers"] = .object(JSONObject(headers.map { header in
                var spec = JSONObject()
                if !header.required { spec["required"] = false }
                if let prefix = header.prefix { spec["prefix"] = .string(prefix) }
                return (header.name, .object(spec))
            }))
        }
        if let json = self.json {
            request["json"] = .object(JSONObject(json.map { key in
                var spec = JSONObject()
                if key.type != .any { spec["type"] = .string(key.type.rawValue) }
                if !key.required { spec["required"] = false }
                return (key.key, .object(spec))
            }))
        }
        if let multipart {
            request["multipart"] = .array(multipart.map { part in
                var spec = JSONObject([("name", .string(part.name))])
                if !part.required { spec["required"] = false }
                if !part.filename { spec["filename"] = false }
                if let types = part.contentTypes { spec["contentTypes"] = .array(types.map(JSONValue.string)) }
                return .object(spec)
            })
        }
        var root = JSONObject([("name", .string(name))])
        if let description { root["description"] = .string(description) }
        root["request"] = .object(request)
        root["responses"] = .object(JSONObject(responses.map { response in
            var spec = JSONObject([("status", .int(response.status))])
            if let fixture = response.fixture { spec["fixture"] = .string(fixture) }
            if !response.headers.isEmpty {
                spec["headers"] = .object(JSONObject(response.headers.map { ($0.name, .string($0.value)) }))
            }
            if let when = response.whenQuery {
                spec["when"] = ["query": .object(JSONObject(when.map { ($0.name, .string($0.value)) }))]
            }
            return (response.name, .object(spec))
        }))
        return .object(root)
    }
}
