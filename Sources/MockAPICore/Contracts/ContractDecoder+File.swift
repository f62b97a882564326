/// Step one: a file's JSON as a `ContractFile`, every key and type checked where it is written.
extension ContractDecoder {
    /// Nil only when the root is not an object. A missing or wrong required value is a problem and
    /// a placeholder, so the second step still finds the problems it alone can see (a missing fixture).
    mutating func decodeFile(_ root: JSONValue) -> ContractFile? {
        guard let object = expectObject(root, at: "$") else { return nil }
        checkKeys(object, allowed: ["$schema", "name", "description", "request", "responses", "sequence", "refusal"], at: "$")
        let name = requireString(object, "name", at: "$") ?? ""
        if object["name"] != nil, name.isEmpty || !name.utf8.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) {
            problem(at: "$.name", "\"\(name)\" is not a usable name: use letters, digits, '_', '.' and '-'")
        }
        var contract = ContractFile(name: name, description: optionalString(object, "description", at: "$"), method: .GET, path: "/")
        contract.schema = optionalString(object, "$schema", at: "$")
        if let request = object["request"] {
            decodeRequest(request, into: &contract, at: "$.request")
        } else {
            problem(at: "$", "missing key \"request\"")
        }
        if let responses = object["responses"] {
            contract.responses = decodeResponses(responses, at: "$.responses")
        } else {
            problem(at: "$", "missing key \"responses\"")
        }
        if let value = object["sequence"] { contract.sequence = decodeSequence(value, responses: contract.responses, at: "$.sequence") }
        contract.refusal = optionalString(object, "refusal", at: "$")
        let refusals =
            [("$.refusal", contract.refusal), ("$.request.credentials.refusal", contract.credentials?.refusal)]
            + contract.headers.map { ("$.request.headers.\($0.name).refusal", $0.refusal) }
        for case let (path, name?) in refusals where !contract.responses.contains(where: { $0.name == name }) {
            problem(at: path, "no response named \"\(name)\" (have: \(contract.responses.map(\.name).joined(separator: ", ")))")
        }
        return contract
    }

    // MARK: request

    private mutating func decodeRequest(_ value: JSONValue, into contract: inout ContractFile, at path: String) {
        guard let object = expectObject(value, at: path) else { return }
        checkKeys(object, allowed: ["method", "path", "query", "headers", "credentials", "json", "multipart", "body", "match", "example"], at: path)
        var method: RequestMethod?
        if let text = requireString(object, "method", at: path) {
            method = RequestMethod(rawValue: text)
            if method == nil {
                let known = RequestMethod.allCases.map(\.rawValue)
                let guess = Self.nearest(text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
                problem(at: "\(path).method", "unknown method \"\(text)\" (\(guess)known: \(known.joined(separator: ", ")))")
            }
        }
        contract.method = method ?? .GET
        if let text = requireString(object, "path", at: path) { contract.path = text }
        contract.query = object["query"].map { decodeQuery($0, at: "\(path).query") } ?? []
        contract.headers = object["headers"].map { decodeHeaders($0, at: "\(path).headers") } ?? []
        contract.credentials = object["credentials"].flatMap { decodeCredentials($0, at: "\(path).credentials") }
        contract.json = object["json"].map { decodeJSONKeys($0, at: "\(path).json") }
        contract.multipart = object["multipart"].map { decodeParts($0, at: "\(path).multipart") }
        if let rules = object["body"] { contract.body = decodeBodyRules(rules, hasJSON: contract.json != nil, hasParts: contract.multipart != nil, at: "\(path).body") }
        if let method, [.GET, .HEAD].contains(method), contract.json != nil || contract.multipart != nil || contract.body.contentTypes != nil {
            problem(at: path, "a \(method.rawValue) request has no body; remove \"json\"/\"multipart\"/\"body\"")
        }
        contract.match = object["match"].flatMap { decodeMatch($0, at: "\(path).match") }
        if let match = contract.match, match.query.isEmpty && match.json.isEmpty {
            problem(at: "\(path).match", "an empty match tells nothing apart")
        }
        contract.example = object["example"].flatMap { decodeExample($0, at: "\(path).example") }
    }

    /// `{"required": false, "nullable": true, "otherKeys": true, "contentTypes": [...]}`: what the body may be besides its keys or parts.
    private mutating func decodeBodyRules(_ value: JSONValue, hasJSON: Bool, hasParts: Bool, at path: String) -> BodyRules {
        guard let object = expectObject(value, at: path) else { return BodyRules() }
        checkKeys(object, allowed: ["required", "nullable", "otherKeys", "otherTypes", "contentTypes"], at: path)
        var rules = BodyRules(
            required: optionalBool(object, "required", at: path) ?? true, nullable: optionalBool(object, "nullable", at: path) ?? false,
            otherKeys: optionalBool(object, "otherKeys", at: path) ?? false, otherTypes: optionalBool(object, "otherTypes", at: path) ?? false)
        rules.contentTypes = object["contentTypes"].flatMap { decodeContentTypes($0, hasJSON: hasJSON, hasParts: hasParts, at: "\(path).contentTypes") }
        if !hasJSON && !hasParts && object["contentTypes"] == nil {
            problem(at: path, "describes a body the contract does not check: add \"json\", \"multipart\" or \"contentTypes\"")
        }
        for (key, set) in [("nullable", rules.nullable), ("otherKeys", rules.otherKeys), ("otherTypes", rules.otherTypes)] where set && !hasJSON {
            problem(at: "\(path).\(key)", "applies to a JSON body: add \"json\"")
        }
        return rules
    }

    /// `["application/json", "application/merge-patch+json"]`: the media types a body may come as.
    private mutating func decodeContentTypes(_ value: JSONValue, hasJSON: Bool, hasParts: Bool, at path: String) -> [String]? {
        guard let types = stringArray(value, at: path) else { return nil }
        if types.isEmpty { problem(at: path, "list at least one media type (no list: application/json for \"json\")") }
        for (offset, type) in types.enumerated() {
            let here = "\(path)[\(offset)]"
            let halves = type.split(separator: "/", omittingEmptySubsequences: false)
            if type != MediaType.essence(of: type) || halves.count != 2 || halves.contains(where: \.isEmpty) || type.contains("*") {
                problem(at: here, "\"\(type)\" is not a media type as a Content-Type names it: lowercase type/subtype, no parameters or wildcards")
            } else if type == "multipart/form-data", hasParts {
                // Without `multipart` it is listed to be taken unread, as any other type.
                problem(at: here, "multipart/form-data comes with \"multipart\"; list the other types")
            } else if types[..<offset].contains(type) {
                problem(at: here, "\"\(type)\" is listed twice")
            }
        }
        if hasJSON, types == ["application/json"] { problem(at: path, "application/json alone is what \"json\" reads without a list; remove \"contentTypes\"") }
        if hasJSON, !types.isEmpty, !types.contains(where: { MediaType.isJSON($0) || $0 == MediaType.form }) {
            problem(at: path, "none of these is read by \"json\": add application/json (or a +json type, or \(MediaType.form))")
        }
        return types.isEmpty ? nil : types
    }

    /// `{"path": {"id": 42}, "query": {"page": "2", "ids": [1, 2]}, "headers": {…}, "json": …}`.
    private mutating func decodeExample(_ value: JSONValue, at path: String) -> RequestExample? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, allowed: ["path", "query", "headers", "json"], at: path)
        var example = RequestExample(json: object["json"])
        if let values = object["path"].flatMap({ expectObject($0, at: "\(path).path") }) {
            for (name, value) in values.members {
                guard let text = scalarStrings(.array([value]), at: "\(path).path.\(name)")?.first else { continue }
                example.path[name] = text
            }
        }
        for (key, target) in [("query", \RequestExample.query), ("headers", \RequestExample.headers)] {
            guard let values = object[key].flatMap({ expectObject($0, at: "\(path).\(key)") }) else { continue }
            for (name, value) in values.members {
                let texts: [String]? =
                    if case .array = value { scalarStrings(value, at: "\(path).\(key).\(name)") } else {
                        scalarStrings(.array([value]), at: "\(path).\(key).\(name)")
                    }
                example[keyPath: target] += (texts ?? []).map { RequestExample.Pair(name, $0) }
            }
        }
        return example
    }

    mutating func decodeQuery(_ value: JSONValue, at path: String) -> [QueryExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            if key.hasSuffix("[]") { problem(at: here, "name the key without \"[]\" and set \"array\": true") }
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["type", "required", "array", "repeated", "enum", "nested", "plain"], at: here)
            var expectation = QueryExpectation(name: key)
            if let type = enumValue(spec, "type", QueryValueType.self, at: here) { expectation.type = type }
            expectation.required = optionalBool(spec, "required", at: here) ?? true
            expectation.arrayStyle = decodeArrayStyle(spec["array"], at: "\(here).array")
            expectation.repeated = optionalBool(spec, "repeated", at: here) ?? false
            expectation.enumValues = spec["enum"].flatMap { scalarStrings($0, at: "\(here).enum") }
            if let allowed = expectation.enumValues, let bad = allowed.first(where: { !expectation.type.accepts($0) }) {
                problem(at: "\(here).enum", "\"\(bad)\" is not a valid \(expectation.type.rawValue)")
            }
            expectation.nested = decodeNestedParts(spec, arrayStyle: expectation.arrayStyle, at: here)
            return expectation
        }
    }

    /// `"nested": true` (any parts) or `["gt", "lt"]` (those first parts), and `"plain": true` (the bare key too).
    private mutating func decodeNestedParts(_ spec: JSONObject, arrayStyle: QueryExpectation.ArrayStyle?, at path: String) -> QueryExpectation.NestedParts? {
        let array = arrayStyle != nil
        let plain = optionalBool(spec, "plain", at: path) ?? false
        var nested: QueryExpectation.NestedParts?
        switch spec["nested"] {
        case nil, .bool(false)?: break
        case .bool(true)?: nested = .init()
        case .array(let elements)? where !elements.isEmpty:
            guard let keys = stringArray(.array(elements), at: "\(path).nested") else { break }
            if array { problem(at: "\(path).nested", "a list's parts are its positions (\(path.split(separator: ".").last ?? "")[0]=…): write \"nested\": true") }
            if let bad = keys.first(where: { $0.isEmpty || $0.contains("[") || $0.contains("]") }) {
                problem(at: "\(path).nested", "\"\(bad)\" is not a part name (no brackets, not empty)")
            }
            nested = .init(keys: keys)
        case let other?:
            problem(at: "\(path).nested", "expected true or a non-empty array of part names, found \(other.serialized)")
        }
        if plain, nested == nil { problem(at: "\(path).plain", "applies to a key with \"nested\" parts") }
        if plain, array { problem(at: "\(path).plain", "a list always takes its bare form as \"array\" says; remove \"plain\"") }
        if nested != nil, let arrayStyle, arrayStyle != .repeated {
            problem(at: "\(path).array", "a list with nested parts takes its bare form repeated (a=1&a=2): write \"array\": \"repeated\", not \"\(arrayStyle.rawValue)\"")
        }
        nested?.plain = plain && !array
        return nested
    }

    /// `"array": true` (brackets, as before styles existed), `"brackets"`, `"repeated"` or `"comma"`.
    private mutating func decodeArrayStyle(_ value: JSONValue?, at path: String) -> QueryExpectation.ArrayStyle? {
        switch value {
        case nil, .bool(false)?: return nil
        case .bool(true)?: return .brackets
        case .string(let text)?:
            if let style = QueryExpectation.ArrayStyle(rawValue: text) { return style }
            let known = QueryExpectation.ArrayStyle.allCases.map(\.rawValue)
            let guess = Self.nearest(text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
            problem(at: path, "unknown array style \"\(text)\" (\(guess)known: true, \(known.joined(separator: ", ")))")
        case let other?:
            problem(at: path, "expected true, false or a style (\"brackets\", \"repeated\", \"comma\"), found \(other.typeName)")
        }
        return nil
    }

    mutating func decodeHeaders(_ value: JSONValue, at path: String) -> [HeaderExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["required", "prefix", "enum", "refusal"], at: here)
            var prefixes: [String] = []
            switch spec["prefix"] {
            case .string(let prefix)?: prefixes = [prefix]
            case .array?: prefixes = stringArray(spec["prefix"]!, at: "\(here).prefix") ?? []
            case let other?: problem(at: "\(here).prefix", "expected a string or an array of strings, found \(other.typeName)")
            case nil: break
            }
            return HeaderExpectation(
                name: key, required: optionalBool(spec, "required", at: here) ?? true, prefixes: prefixes,
                enumValues: spec["enum"].flatMap { stringArray($0, at: "\(here).enum") },
                refusal: optionalString(spec, "refusal", at: here))
        }
    }

    /// `{"anyOf": [{"header": "X-API-Key"}, {"header": "Authorization", "prefix": "Basic "}, {"query": "clientKey"}], "refusal": "unauthorized"}`.
    private mutating func decodeCredentials(_ value: JSONValue, at path: String) -> CredentialExpectation? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, allowed: ["anyOf", "refusal"], at: path)
        guard case .array(let elements)? = object["anyOf"], !elements.isEmpty else {
            problem(
                at: "\(path).anyOf",
                object["anyOf"] == nil
                    ? "missing key \"anyOf\" (a list of credentials, any one of which keeps the contract)"
                    : "expected a non-empty list of credentials like {\"header\": \"X-API-Key\"} or {\"query\": \"clientKey\"}")
            return nil
        }
        var anyOf: [CredentialExpectation.Credential] = []
        for (offset, element) in elements.enumerated() {
            let here = "\(path).anyOf[\(offset)]"
            guard let spec = expectObject(element, at: here) else { continue }
            checkKeys(spec, allowed: ["header", "query", "prefix"], at: here)
            let places = CredentialExpectation.Credential.Place.allCases.filter { spec[$0.rawValue] != nil }
            guard places.count == 1, let place = places.first else {
                problem(at: here, "give exactly one of \"header\" or \"query\" (the name the credential is sent under)")
                continue
            }
            guard let name = requireString(spec, place.rawValue, at: here), !name.isEmpty else { continue }
            let prefix = optionalString(spec, "prefix", at: here)
            if prefix != nil, place == .query { problem(at: "\(here).prefix", "a prefix is for a header credential (\"Basic \", \"Bearer \")") }
            if anyOf.contains(where: { $0.place == place && $0.name.lowercased() == name.lowercased() && $0.prefix == prefix }) {
                problem(at: here, "the same credential is listed twice")
            }
            anyOf.append(CredentialExpectation.Credential(place: place, name: name, prefix: place == .header ? prefix : nil))
        }
        return CredentialExpectation(anyOf: anyOf, refusal: optionalString(object, "refusal", at: path))
    }

    private mutating func decodeJSONKeys(_ value: JSONValue, at path: String) -> [JSONKeyExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["type", "required", "nullable", "enum", "properties", "otherKeys", "items"], at: here)
            return JSONKeyExpectation(key: key, required: optionalBool(spec, "required", at: here) ?? true, schema: decodeSchema(spec, at: here))
        }
    }

    /// `type`, `enum`, `properties` (an object's keys, as in `json`) and `items` (an array's elements).
    private mutating func decodeSchema(_ spec: JSONObject, at path: String) -> JSONValueSchema {
        var type = enumValue(spec, "type", JSONValueType.self, at: path) ?? .any
        var enumValues: [JSONValue]?
        if let values = spec["enum"] {
            if case .array(let elements) = values, !elements.isEmpty {
                enumValues = elements
                for (offset, element) in elements.enumerated() where !type.accepts(element) {
                    problem(at: "\(path).enum[\(offset)]", "\(element.serialized) is not a valid \(type.rawValue)")
                }
            } else {
                problem(at: "\(path).enum", "expected a non-empty array of allowed values, found \(values.serialized)")
            }
        }
        let properties = spec["properties"].map { decodeJSONKeys($0, at: "\(path).properties") }
        var items: JSONValueSchema?
        if let itemSpec = spec["items"], let itemObject = expectObject(itemSpec, at: "\(path).items") {
            checkKeys(itemObject, allowed: ["type", "nullable", "enum", "properties", "otherKeys", "items"], at: "\(path).items")
            items = decodeSchema(itemObject, at: "\(path).items")
        }
        // `properties` implies an object and `items` an array; any other declared type is a contradiction.
        for (key, implied) in [("properties", JSONValueType.object), ("items", .array)] where spec[key] != nil {
            if type == .any {
                type = implied
            } else if type != implied {
                problem(at: path, "\"\(key)\" describes \(implied == .object ? "an object" : "an array"), but \"type\" is \"\(type.rawValue)\"")
            }
        }
        let otherKeys = optionalBool(spec, "otherKeys", at: path) ?? false
        let nullable = optionalBool(spec, "nullable", at: path) ?? false
        if nullable, type == .any || type == .null { problem(at: "\(path).nullable", "\"\(type.rawValue)\" already takes null; give the type null is allowed beside") }
        if otherKeys, properties == nil { problem(at: "\(path).otherKeys", "applies to an object's \"properties\"; without them the object is not checked at all") }
        return JSONValueSchema(type: type, enumValues: enumValues, properties: properties, otherKeys: otherKeys, items: items, nullable: nullable)
    }

    private mutating func decodeParts(_ value: JSONValue, at path: String) -> [PartExpectation] {
        guard case .array(let elements) = value else {
            problem(at: path, "expected an array of parts, found \(value.typeName)")
            return []
        }
        var seen: Set<String> = []
        return elements.enumerated().compactMap { offset, element in
            let here = "\(path)[\(offset)]"
            guard let spec = expectObject(element, at: here) else { return nil }
            checkKeys(spec, allowed: ["name", "required", "filename", "contentTypes", "maxBytes"], at: here)
            guard let name = requireString(spec, "name", at: here) else { return nil }
            if !seen.insert(name).inserted { problem(at: here, "part \"\(name)\" is declared twice") }
            var part = PartExpectation(name: name)
            part.required = optionalBool(spec, "required", at: here) ?? true
            part.filename = optionalBool(spec, "filename", at: here) ?? true
            if let types = spec["contentTypes"] {
                part.contentTypes = stringArray(types, at: "\(here).contentTypes")?.map { $0.lowercased() }
            }
            if let maxBytes = spec["maxBytes"] {
                if case .int(let n) = maxBytes, n > 0 {
                    part.maxBytes = n
                } else {
                    problem(at: "\(here).maxBytes", "expected a positive int, found \(maxBytes.serialized)")
                }
            }
            return part
        }
    }

    /// `_defaults.json`: the query keys and headers every request of the set may (or must) carry.
    mutating func decodeDefaults(_ root: JSONValue) -> SetDefaults {
        guard let object = expectObject(root, at: "$") else { return SetDefaults() }
        checkKeys(object, allowed: ["$schema", "description", "query", "headers"], at: "$")
        _ = optionalString(object, "description", at: "$")
        let headers = object["headers"].map { decodeHeaders($0, at: "$.headers") } ?? []
        for header in headers where header.refusal != nil {
            problem(at: "$.headers.\(header.name).refusal", "a refusal names one of a contract's responses: set it in the contracts")
        }
        return SetDefaults(query: object["query"].map { decodeQuery($0, at: "$.query") } ?? [], headers: headers)
    }

    // MARK: responses

    private mutating func decodeResponses(_ value: JSONValue, at path: String) -> [ContractFile.Response] {
        guard let object = expectObject(value, at: path) else { return [] }
        if object["default"] == nil { problem(at: path, "missing the \"default\" response") }
        return object.members.compactMap { name, spec in
            let here = "\(path).\(name)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["status", "fixture", "body", "headers", "when", "delay", "fault", "placeholders"], at: here)
            var status = 200
            if case .int(let n)? = spec["status"], (100...599).contains(n) {
                status = n
            } else {
                problem(at: "\(here).status", spec["status"].map { "expected an HTTP status 100-599, found \($0.serialized)" } ?? "missing key \"status\"")
            }
            var response = ContractFile.Response(name: name, status: status, fixture: optionalString(spec, "fixture", at: here), body: spec["body"])
            if spec["fixture"] != nil, spec["body"] != nil { problem(at: here, "a response has \"fixture\" or \"body\", not both") }
            if let headers = spec["headers"], let headerObject = expectObject(headers, at: "\(here).headers") {
                response.headers = headerObject.members.compactMap { key, value in
                    guard let text = value.stringValue else {
                        problem(at: "\(here).headers.\(key)", "expected a string, found \(value.typeName)")
                        return nil
                    }
                    return ContractFile.HeaderField(key, text)
                }
            }
            response.when = spec["when"].flatMap { decodeMatch($0, at: "\(here).when") }
            if let delay = spec["delay"] { response.delay = decodeLatency(delay, at: "\(here).delay") }
            if spec["fault"] != nil { response.fault = enumValue(spec, "fault", Fault.self, at: here) }
            response.placeholders = optionalBool(spec, "placeholders", at: here) ?? true
            return response
        }
    }

    /// `800`, `{"min": 200, "max": 800}` or `{"median": 300, "sigma": 0.5}`, in milliseconds, each
    /// within `NumberRange.delayMilliseconds` (an hour; `--max-delay` caps what is served).
    private mutating func decodeLatency(_ value: JSONValue, at path: String) -> Latency? {
        let range = NumberRange.delayMilliseconds
        func number(_ value: JSONValue?, in range: NumberRange = range) -> Double? {
            let number: Double? =
                switch value {
                case .int(let n)?: Double(n)
                case .double(let d)?: d
                default: nil
                }
            return number.flatMap { range.contains($0) ? $0 : nil }
        }
        if let milliseconds = number(value) { return .fixed(milliseconds) }
        if case .object(let object) = value {
            if let low = number(object["min"]), let high = number(object["max"]), object.keys.count == 2, high >= low {
                return .uniform(min: low, max: high)
            }
            if let median = number(object["median"]), let sigma = number(object["sigma"], in: .delaySigma), object.keys.count == 2 {
                return .logNormal(median: median, sigma: sigma)
            }
        }
        problem(
            at: path,
            "expected milliseconds from \(range) (800), {\"min\": 200, \"max\": 800} or {\"median\": 300, \"sigma\": 0.5} "
                + "(sigma \(NumberRange.delaySigma)), found \(value.serialized)")
        return nil
    }

    /// `{"query": {"count": "0"}, "json": {"provider": "facebook"}}`: a request's `match` or a response's `when`.
    private mutating func decodeMatch(_ value: JSONValue, at path: String) -> RequestMatch? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, allowed: ["query", "json"], at: path)
        var match = RequestMatch()
        if let query = object["query"], let queryObject = expectObject(query, at: "\(path).query") {
            match.query = queryObject.members.compactMap { key, value in
                switch value {
                case .string(let text): return (key, text)
                case .int, .double, .bool: return (key, value.serialized)
                default:
                    problem(at: "\(path).query.\(key)", "expected a string, number or boolean, found \(value.typeName)")
                    return nil
                }
            }
        }
        if let json = object["json"], let jsonObject = expectObject(json, at: "\(path).json") {
            match.json = jsonObject.members.map { ($0.key, $0.value) }
        }
        return match
    }

    private mutating func decodeSequence(_ value: JSONValue, responses: [ContractFile.Response], at path: String) -> [String]? {
        guard let names = stringArray(value, at: path) else { return nil }
        if names.isEmpty { problem(at: path, "a sequence needs at least one response name") }
        for (offset, name) in names.enumerated() where !responses.contains(where: { $0.name == name }) {
            problem(at: "\(path)[\(offset)]", "no response named \"\(name)\" (have: \(responses.map(\.name).joined(separator: ", ")))")
        }
        return names.isEmpty ? nil : names
    }
}
