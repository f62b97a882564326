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
                if query.repeated { spec["repeated"] = true }
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
        if let match {
            var spec = JSONObject()
            if !match.query.isEmpty { spec["query"] = .object(JSONObject(match.query.map { ($0.name, .string($0.value)) })) }
            if !match.json.isEmpty { spec["json"] = .object(JSONObject(match.json.map { ($0.key, $0.value) })) }
            request["match"] = .object(spec)
        }
        if let example { request["example"] = example.exampleJSON }
        var root = JSONObject([("name", .string(name))])
        if let description { root["description"] = .string(description) }
        root["request"] = .object(request)
        root["responses"] = .object(JSONObject(responses.map { response in
            var spec = JSONObject([("status", .int(response.status))])
            if let fixture = response.fixture { spec["fixture"] = .string(fixture) }
            if !response.headers.isEmpty {
                spec["headers"] = .object(JSONObject(response.headers.map { ($0.name, .string($0.value)) }))
            }
            if response.whenQuery != nil || response.whenJSON != nil {
                var when = JSONObject()
                if let query = response.whenQuery { when["query"] = .object(JSONObject(query.map { ($0.name, .string($0.value)) })) }
                if let json = response.whenJSON { when["json"] = .object(JSONObject(json.map { ($0.key, $0.value) })) }
                spec["when"] = .object(when)
            }
            return (response.name, .object(spec))
        }))
        if let sequence { root["sequence"] = .array(sequence.map(JSONValue.string)) }
        return .object(root)
    }
}

extension RequestExample {
    /// The `example` object: path values, query and headers (a key sent twice as an array), JSON body.
    var exampleJSON: JSONValue {
        func grouped(_ pairs: [Pair]) -> JSONValue {
            var order: [String] = []
            var values: [String: [String]] = [:]
            for pair in pairs {
                if values[pair.name] == nil { order.append(pair.name) }
                values[pair.name, default: []].append(pair.value)
            }
            return .object(JSONObject(order.map { name in
                let all = values[name]!
                return (name, all.count == 1 ? .string(all[0]) : .array(all.map(JSONValue.string)))
            }))
        }
        var object = JSONObject()
        if !path.isEmpty { object["path"] = .object(JSONObject(path.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        if !query.isEmpty { object["query"] = grouped(query) }
        if !headers.isEmpty { object["headers"] = grouped(headers) }
        if let body = self.json { object["json"] = body }
        return .object(object)
    }
}
