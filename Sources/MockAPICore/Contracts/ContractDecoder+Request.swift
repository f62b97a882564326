/// A contract's `request`: method, path, headers, credentials, body rules, parts, match and example.
extension ContractDecoder {
    mutating func decodeRequest(_ value: JSONValue, into contract: inout ContractFile, at path: String) {
        guard let object = expectObject(value, at: path) else { return }
        checkKeys(object, RequestKey.self, at: path)
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
        if let match = contract.match, match.query.isEmpty && match.json.isEmpty && match.contentType == nil {
            problem(at: "\(path).match", "an empty match tells nothing apart")
        }
        contract.example = object["example"].flatMap { decodeExample($0, at: "\(path).example") }
    }

    /// `{"required": false, "nullable": true, "otherKeys": true, "contentTypes": [...], "oneOf": [...]}`: what the body may be
    /// besides its keys or parts.
    mutating func decodeBodyRules(_ value: JSONValue, hasJSON: Bool, hasParts: Bool, at path: String) -> BodyRules {
        guard let object = expectObject(value, at: path) else { return BodyRules() }
        checkKeys(object, BodyRulesKey.self, at: path)
        var rules = BodyRules(
            required: optionalBool(object, "required", at: path) ?? true, nullable: optionalBool(object, "nullable", at: path) ?? false,
            otherKeys: optionalBool(object, "otherKeys", at: path) ?? false, otherTypes: optionalBool(object, "otherTypes", at: path) ?? false)
        rules.contentTypes = object["contentTypes"].flatMap { decodeContentTypes($0, hasJSON: hasJSON, hasParts: hasParts, at: "\(path).contentTypes") }
        (rules.oneOf, rules.anyOf) = decodeOptions(object, at: path)
        if !hasJSON && !hasParts && object["contentTypes"] == nil && rules.branches == nil {
            problem(at: path, "describes a body the contract does not check: add \"json\", \"multipart\" or \"contentTypes\"")
        }
        if let (keyword, options) = rules.branches {
            if rules.oneOf != nil, rules.anyOf != nil { problem(at: path, "give \"oneOf\" or \"anyOf\", not both") }
            if !hasJSON { problem(at: "\(path).\(keyword)", "applies to a JSON body: add \"json\" (the keys every body has; {} for none)") }
            if rules.otherKeys { problem(at: "\(path).otherKeys", "the options of \"\(keyword)\" say which other keys a body may have; set \"otherKeys\" in an option") }
            for (offset, option) in options.enumerated() where ![.object, .any].contains(option.type) || option.enumValues != nil {
                problem(
                    at: "\(path).\(keyword)[\(offset)]",
                    "a body option describes an object (give its \"properties\"), found \(option.enumValues != nil ? "an enum" : "type \"\(option.type.rawValue)\"")")
            }
        }
        for (key, set) in [("nullable", rules.nullable), ("otherKeys", rules.otherKeys), ("otherTypes", rules.otherTypes)] where set && !hasJSON {
            // `otherKeys` beside `multipart` takes parts it does not name.
            if key == "otherKeys", hasParts { continue }
            problem(at: "\(path).\(key)", "applies to a JSON body: add \"json\"")
        }
        return rules
    }

    /// `["application/json", "application/merge-patch+json"]`: the media types a body may come as.
    mutating func decodeContentTypes(_ value: JSONValue, hasJSON: Bool, hasParts: Bool, at path: String) -> [String]? {
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
    mutating func decodeExample(_ value: JSONValue, at path: String) -> RequestExample? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, ExampleKey.self, at: path)
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

    mutating func decodeHeaders(_ value: JSONValue, at path: String) -> [HeaderExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, HeaderKey.self, at: here)
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
    mutating func decodeCredentials(_ value: JSONValue, at path: String) -> CredentialExpectation? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, CredentialsKey.self, at: path)
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
            checkKeys(spec, CredentialKey.self, at: here)
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

    mutating func decodeParts(_ value: JSONValue, at path: String) -> [PartExpectation] {
        guard case .array(let elements) = value else {
            problem(at: path, "expected an array of parts, found \(value.typeName)")
            return []
        }
        var seen: Set<String> = []
        return elements.enumerated().compactMap { offset, element in
            let here = "\(path)[\(offset)]"
            guard let spec = expectObject(element, at: here) else { return nil }
            checkKeys(spec, PartKey.self, at: here)
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
            part.checkBytes = optionalBool(spec, "checkBytes", at: here) ?? false
            if part.checkBytes, let types = part.contentTypes, !types.contains(where: ContentSignature.checkable.contains) {
                problem(
                    at: "\(here).checkBytes",
                    "none of the part's contentTypes has bytes mockapi can check (it knows \(ContentSignature.checkable.sorted().joined(separator: ", ")))")
            }
            return part
        }
    }

    /// `{"query": {"count": "0"}, "json": {"provider": "facebook"}, "contentType": "application/json"}`: a
    /// request's `match` or a response's `when`.
    mutating func decodeMatch(_ value: JSONValue, at path: String) -> RequestMatch? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, MatchKey.self, at: path)
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
        if let type = optionalString(object, "contentType", at: path) {
            let halves = type.split(separator: "/", omittingEmptySubsequences: false)
            if type != MediaType.essence(of: type) || halves.count != 2 || halves.contains(where: \.isEmpty) || type.contains("*") {
                problem(at: "\(path).contentType", "\"\(type)\" is not a media type as a Content-Type names it: lowercase type/subtype, no parameters or wildcards")
            } else {
                match.contentType = type
            }
        }
        return match
    }
}

/// A contract's `request`.
package enum RequestKey: String, FormatKey {
    case method
    case path
    case query
    case headers
    case credentials
    case json
    case multipart
    case body
    case match
    case example
}

/// `request.body`: what the body may be besides its keys or parts.
package enum BodyRulesKey: String, FormatKey {
    case required
    case nullable
    case otherKeys
    case otherTypes
    case contentTypes
    case oneOf
    case anyOf
}

/// `request.example`.
package enum ExampleKey: String, FormatKey {
    case path
    case query
    case headers
    case json
}

/// One of `request.headers` (or `_defaults.json`'s `headers`).
package enum HeaderKey: String, FormatKey {
    case required
    case prefix
    case `enum`
    case refusal
}

/// `request.credentials`.
package enum CredentialsKey: String, FormatKey {
    case anyOf
    case refusal
}

/// One of `request.credentials.anyOf`: `header` or `query`, as `CredentialExpectation.Credential.Place` names them.
package enum CredentialKey: String, FormatKey {
    case header
    case query
    case prefix
}

/// One of `request.multipart`.
package enum PartKey: String, FormatKey {
    case name
    case required
    case filename
    case contentTypes
    case maxBytes
    case checkBytes
}

/// `request.match` and a response's `when`.
package enum MatchKey: String, FormatKey {
    case query
    case json
    case contentType
}
