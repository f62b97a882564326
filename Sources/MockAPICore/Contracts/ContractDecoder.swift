/// Turns one parsed contract file into a `Contract`, strictly: unknown keys and wrong types are
/// problems named by their JSON path, and every problem in the file is collected, not just the first.
struct ContractDecoder {
    let file: String
    let displayFile: String
    let fixtures: FixtureStore
    /// Query keys and headers from `_defaults.json`, under every contract's own.
    let defaults: SetDefaults
    private(set) var problems: [LoadProblem] = []

    init(file: String, displayFile: String, fixtures: FixtureStore, defaults: SetDefaults = SetDefaults()) {
        self.file = file
        self.displayFile = displayFile
        self.fixtures = fixtures
        self.defaults = defaults
    }

    mutating func decode(_ root: JSONValue) -> Contract? {
        guard let object = expectObject(root, at: "$") else { return nil }
        checkKeys(object, allowed: ["$schema", "name", "description", "request", "responses", "sequence"], at: "$")
        let name = requireString(object, "name", at: "$")
        if let name, name.isEmpty || !name.utf8.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) {
            problem(at: "$.name", "\"\(name)\" is not a usable name: use letters, digits, '_', '.' and '-'")
        }
        let description = optionalString(object, "description", at: "$")
        let request = object["request"].flatMap { decodeRequest($0, at: "$.request") }
        if object["request"] == nil { problem(at: "$", "missing key \"request\"") }
        let responses = object["responses"].map { decodeResponses($0, request: request, at: "$.responses") } ?? []
        if object["responses"] == nil { problem(at: "$", "missing key \"responses\"") }
        var sequence: [Int]?
        if let value = object["sequence"] {
            sequence = decodeSequence(value, responses: responses, at: "$.sequence")
        }
        guard let name, let request, !responses.isEmpty else { return nil }
        return Contract(name: name, description: description, file: file, request: request, responses: responses, sequence: sequence)
    }

    // MARK: request

    private mutating func decodeRequest(_ value: JSONValue, at path: String) -> RequestExpectation? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, allowed: ["method", "path", "query", "headers", "json", "multipart", "match", "example"], at: path)
        var method: HTTPMethod?
        if let text = requireString(object, "method", at: path) {
            method = HTTPMethod(rawValue: text)
            if method == nil {
                let known = HTTPMethod.allCases.map(\.rawValue)
                let guess = Self.nearest(text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
                problem(at: "\(path).method", "unknown method \"\(text)\" (\(guess)known: \(known.joined(separator: ", ")))")
            }
        }
        var template: PathTemplate?
        if let text = requireString(object, "path", at: path) {
            do { template = try PathTemplate(text) } catch { problem(at: "\(path).path", error.description) }
        }
        let query = defaults.merged(query: object["query"].map { decodeQuery($0, at: "\(path).query") } ?? [])
        let headers = defaults.merged(headers: object["headers"].map { decodeHeaders($0, at: "\(path).headers") } ?? [])
        let json = object["json"].map { decodeJSONKeys($0, at: "\(path).json") }
        let multipart = object["multipart"].map { decodeParts($0, at: "\(path).multipart") }
        if json != nil, multipart != nil { problem(at: path, "a request has either \"json\" or \"multipart\", not both") }
        if let method, [.GET, .HEAD].contains(method), json != nil || multipart != nil {
            problem(at: path, "a \(method.rawValue) request has no body; remove \"json\"/\"multipart\"")
        }
        let match = object["match"].flatMap { decodeMatch($0, at: "\(path).match") }
        if let match {
            // The values that pick this contract must be ones it declares, or they would be violations.
            for (name, _) in match.query where !query.contains(where: { $0.name == name }) {
                problem(at: "\(path).match.query.\(name)", "the contract's \"query\" does not name \"\(name)\"")
            }
            for (key, _) in match.json where !(json ?? []).contains(where: { $0.key == key }) {
                problem(at: "\(path).match.json.\(key)", "the contract's \"json\" does not name \"\(key)\"")
            }
            if match.query.isEmpty && match.json.isEmpty { problem(at: "\(path).match", "an empty match tells nothing apart") }
        }
        guard let method, let template else { return nil }
        let example = object["example"].flatMap { decodeExample($0, template: template, at: "\(path).example") }
        return RequestExpectation(method: method, path: template, query: query, headers: headers, json: json, multipart: multipart,
                                  match: match, example: example)
    }

    /// `{"path": {"id": 42}, "query": {"page": "2", "ids": [1, 2]}, "headers": {…}, "json": …}`.
    private mutating func decodeExample(_ value: JSONValue, template: PathTemplate, at path: String) -> RequestExample? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, allowed: ["path", "query", "headers", "json"], at: path)
        var example = RequestExample(json: object["json"])
        if let values = object["path"].flatMap({ expectObject($0, at: "\(path).path") }) {
            for (name, value) in values.members {
                guard let text = scalarStrings(.array([value]), at: "\(path).path.\(name)")?.first else { continue }
                if !template.parameterNames.contains(name) {
                    problem(at: "\(path).path.\(name)", "the path \(template) has no parameter \"\(name)\"")
                }
                example.path[name] = text
            }
            for name in template.parameterNames where example.path[name] == nil {
                problem(at: "\(path).path", "no value for the path parameter \"\(name)\"")
            }
        }
        for (key, target) in [("query", \RequestExample.query), ("headers", \RequestExample.headers)] {
            guard let values = object[key].flatMap({ expectObject($0, at: "\(path).\(key)") }) else { continue }
            for (name, value) in values.members {
                let texts: [String]? = if case .array = value { scalarStrings(value, at: "\(path).\(key).\(name)") } else {
                    scalarStrings(.array([value]), at: "\(path).\(key).\(name)")
                }
                example[keyPath: target] += (texts ?? []).map { RequestExample.Pair(name, $0) }
            }
        }
        return example
    }

    private mutating func decodeQuery(_ value: JSONValue, at path: String) -> [QueryExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            if key.hasSuffix("[]") { problem(at: here, "name the key without \"[]\" and set \"array\": true") }
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["type", "required", "array", "repeated", "enum"], at: here)
            var expectation = QueryExpectation(name: key)
            if let type = enumValue(spec, "type", QueryValueType.self, at: here) { expectation.type = type }
            expectation.required = optionalBool(spec, "required", at: here) ?? true
            expectation.array = optionalBool(spec, "array", at: here) ?? false
            expectation.repeated = optionalBool(spec, "repeated", at: here) ?? false
            expectation.enumValues = spec["enum"].flatMap { scalarStrings($0, at: "\(here).enum") }
            if let allowed = expectation.enumValues, let bad = allowed.first(where: { !expectation.type.accepts($0) }) {
                problem(at: "\(here).enum", "\"\(bad)\" is not a valid \(expectation.type.rawValue)")
            }
            return expectation
        }
    }

    private mutating func decodeHeaders(_ value: JSONValue, at path: String) -> [HeaderExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["required", "prefix", "enum"], at: here)
            var prefixes: [String] = []
            switch spec["prefix"] {
            case .string(let prefix)?: prefixes = [prefix]
            case .array?: prefixes = stringArray(spec["prefix"]!, at: "\(here).prefix") ?? []
            case let other?: problem(at: "\(here).prefix", "expected a string or an array of strings, found \(other.typeName)")
            case nil: break
            }
            return HeaderExpectation(name: key, required: optionalBool(spec, "required", at: here) ?? true, prefixes: prefixes,
                                     enumValues: spec["enum"].flatMap { stringArray($0, at: "\(here).enum") })
        }
    }

    private mutating func decodeJSONKeys(_ value: JSONValue, at path: String) -> [JSONKeyExpectation] {
        guard let object = expectObject(value, at: path) else { return [] }
        return object.members.compactMap { key, spec in
            let here = "\(path).\(key)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["type", "required", "enum", "properties", "items"], at: here)
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
            checkKeys(itemObject, allowed: ["type", "enum", "properties", "items"], at: "\(path).items")
            items = decodeSchema(itemObject, at: "\(path).items")
        }
        // `properties` implies an object and `items` an array; any other declared type is a contradiction.
        for (key, implied) in [("properties", JSONValueType.object), ("items", .array)] where spec[key] != nil {
            if type == .any { type = implied } else if type != implied {
                problem(at: path, "\"\(key)\" describes \(implied == .object ? "an object" : "an array"), but \"type\" is \"\(type.rawValue)\"")
            }
        }
        return JSONValueSchema(type: type, enumValues: enumValues, properties: properties, items: items)
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
                if case .int(let n) = maxBytes, n > 0 { part.maxBytes = n } else {
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
        return SetDefaults(query: object["query"].map { decodeQuery($0, at: "$.query") } ?? [],
                           headers: object["headers"].map { decodeHeaders($0, at: "$.headers") } ?? [])
    }

    // MARK: responses

    private mutating func decodeResponses(_ value: JSONValue, request: RequestExpectation?, at path: String) -> [ResponseDefinition] {
        guard let object = expectObject(value, at: path) else { return [] }
        if object["default"] == nil { problem(at: path, "missing the \"default\" response") }
        return object.members.compactMap { name, spec in
            let here = "\(path).\(name)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, allowed: ["status", "fixture", "body", "headers", "when", "delay", "fault"], at: here)
            var status = 200
            if case .int(let n)? = spec["status"], (100...599).contains(n) { status = n } else {
                problem(at: "\(here).status", spec["status"].map { "expected an HTTP status 100-599, found \($0.serialized)" } ?? "missing key \"status\"")
            }
            var response = ResponseDefinition(name: name, status: status, body: [], contentType: nil)
            if spec["fixture"] != nil, spec["body"] != nil { problem(at: here, "a response has \"fixture\" or \"body\", not both") }
            if let fixture = optionalString(spec, "fixture", at: here) {
                response.fixture = fixture
                switch fixtures.load(fixture) {
                case .success(let loaded):
                    response.body = loaded.bytes
                    response.contentType = loaded.contentType
                case .failure(let failure):
                    if let problem = failure.problem(referencedFrom: displayFile, at: "\(here).fixture") { problems.append(problem) }
                }
            } else if let body = spec["body"] {
                response.body = Array(body.serialized.utf8)
                response.contentType = "application/json"
            }
            if let headers = spec["headers"], let headerObject = expectObject(headers, at: "\(here).headers") {
                response.headers = headerObject.members.compactMap { key, value in
                    guard let text = value.stringValue else {
                        problem(at: "\(here).headers.\(key)", "expected a string, found \(value.typeName)")
                        return nil
                    }
                    return (key, text)
                }
            }
            // After the headers: a Content-Type among them is what a browser goes by.
            response.template = decodeTemplate(response, request: request, at: spec["fixture"] != nil ? "\(here).fixture" : "\(here).body")
            if let when = spec["when"] {
                response.when = decodeMatch(when, at: "\(here).when")
            }
            if let delay = spec["delay"] { response.delay = decodeLatency(delay, at: "\(here).delay") }
            if spec["fault"] != nil { response.fault = enumValue(spec, "fault", Fault.self, at: here) }
            return response
        }
    }

    /// The body's placeholders, each checked against what the request can fill it with, and
    /// against the media type, which says how a request's value is escaped (if it can be).
    private mutating func decodeTemplate(_ response: ResponseDefinition, request: RequestExpectation?, at path: String) -> ResponseTemplate? {
        let template: ResponseTemplate?
        // The Content-Type a browser goes by: a `headers` one is sent last, so it wins.
        let mediaType = response.headers.last { $0.name.lowercased() == "content-type" }?.value ?? response.contentType
        var escaping = ResponseTemplate.Escaping.forMediaType(mediaType)
        // A JSON body sent as plain text stays valid JSON: escaping for JSON is as safe there.
        if escaping == ResponseTemplate.Escaping.none, ResponseTemplate.Escaping.forMediaType(response.contentType) == .json { escaping = .json }
        do throws(ResponseTemplate.UnknownPlaceholder) {
            template = try ResponseTemplate.parse(response.body, escaping: escaping ?? .none)
        } catch {
            problem(at: path, "unknown placeholder {{\(error.name)}} (known: {{baseURL}}, {{path.NAME}}, {{query.NAME}})")
            return nil
        }
        if let template, template.needsRequest, escaping == nil {
            problem(at: path, "a request's value ({{path.NAME}}, {{query.NAME}}) cannot be escaped safely in a \(mediaType ?? "response without Content-Type") body; "
                + "use it in JSON, HTML, XML or plain text, or keep only {{baseURL}}")
            return nil
        }
        guard let template, let request else { return template }
        for piece in template.pieces {
            switch piece {
            case .path(let name) where !request.path.parameterNames.contains(name):
                let names = request.path.parameterNames
                problem(at: path, "{{path.\(name)}} names no parameter of \(request.path) (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            case .query(let name) where !request.query.contains(where: { $0.name == name }):
                problem(at: path, "{{query.\(name)}} names no query key of this contract (it has: \(request.query.isEmpty ? "none" : request.query.map(\.name).joined(separator: ", ")))")
            default:
                continue
            }
        }
        return template
    }

    /// `800`, `{"min": 200, "max": 800}` or `{"median": 300, "sigma": 0.5}`, in milliseconds, each
    /// within `NumberRange.delayMilliseconds` (an hour; `--max-delay` caps what is served).
    private mutating func decodeLatency(_ value: JSONValue, at path: String) -> Latency? {
        let range = NumberRange.delayMilliseconds
        func number(_ value: JSONValue?, in range: NumberRange = range) -> Double? {
            let number: Double? = switch value {
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
        problem(at: path, "expected milliseconds from \(range) (800), {\"min\": 200, \"max\": 800} or {\"median\": 300, \"sigma\": 0.5} "
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

    private mutating func decodeSequence(_ value: JSONValue, responses: [ResponseDefinition], at path: String) -> [Int]? {
        guard let names = stringArray(value, at: path) else { return nil }
        if names.isEmpty { problem(at: path, "a sequence needs at least one response name") }
        var indexes: [Int] = []
        for (offset, name) in names.enumerated() {
            if let index = responses.firstIndex(where: { $0.name == name }) { indexes.append(index) } else {
                problem(at: "\(path)[\(offset)]", "no response named \"\(name)\" (have: \(responses.map(\.name).joined(separator: ", ")))")
            }
        }
        return indexes.isEmpty ? nil : indexes
    }

    // MARK: primitives

    mutating func problem(at path: String, _ message: String) {
        problems.append(LoadProblem(file: displayFile, location: .jsonPath(path), message: message))
    }

    private mutating func expectObject(_ value: JSONValue, at path: String) -> JSONObject? {
        if case .object(let object) = value { return object }
        problem(at: path, "expected an object, found \(value.typeName)")
        return nil
    }

    private mutating func checkKeys(_ object: JSONObject, allowed: [String], at path: String) {
        for key in object.keys where !allowed.contains(key) {
            let guess = Self.nearest(key, among: allowed).map { "did you mean \"\($0)\"? " } ?? ""
            problem(at: path, "unknown key \"\(key)\" (\(guess)allowed: \(allowed.joined(separator: ", ")))")
        }
    }

    /// The allowed word `word` was most likely meant as: within two edits, or the same but for case.
    static func nearest(_ word: String, among allowed: [String]) -> String? {
        if let sameButCase = allowed.first(where: { $0.lowercased() == word.lowercased() }) { return sameButCase }
        let scored = allowed.map { ($0, NearestContracts.editDistance(word, $0, limit: 3)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    private mutating func requireString(_ object: JSONObject, _ key: String, at path: String) -> String? {
        guard object[key] != nil else {
            problem(at: path, "missing key \"\(key)\"")
            return nil
        }
        return optionalString(object, key, at: path)
    }

    private mutating func optionalString(_ object: JSONObject, _ key: String, at path: String) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else {
            problem(at: "\(path).\(key)", "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    private mutating func optionalBool(_ object: JSONObject, _ key: String, at path: String) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            problem(at: "\(path).\(key)", "expected true or false, found \(value.typeName)")
            return nil
        }
        return flag
    }

    private mutating func enumValue<E: RawRepresentable & CaseIterable>(_ object: JSONObject, _ key: String, _: E.Type, at path: String) -> E?
    where E.RawValue == String {
        guard let text = optionalString(object, key, at: path) else { return nil }
        guard let value = E(rawValue: text) else {
            let known = E.allCases.map(\.rawValue)
            let guess = Self.nearest(text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
            problem(at: "\(path).\(key)", "unknown \(key) \"\(text)\" (\(guess)known: \(known.joined(separator: ", ")))")
            return nil
        }
        return value
    }

    /// An `enum` of query values: strings, numbers or booleans, kept as the text a query carries.
    private mutating func scalarStrings(_ value: JSONValue, at path: String) -> [String]? {
        guard case .array(let elements) = value, !elements.isEmpty else {
            problem(at: path, "expected a non-empty array of allowed values, found \(value.serialized)")
            return nil
        }
        return elements.enumerated().compactMap { offset, element in
            switch element {
            case .string(let text): return text
            case .int, .double, .bool: return element.serialized
            default:
                problem(at: "\(path)[\(offset)]", "expected a string, number or boolean, found \(element.typeName)")
                return nil
            }
        }
    }

    private mutating func stringArray(_ value: JSONValue, at path: String) -> [String]? {
        guard case .array(let elements) = value else {
            problem(at: path, "expected an array of strings, found \(value.typeName)")
            return nil
        }
        var strings: [String] = []
        for (offset, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                problem(at: "\(path)[\(offset)]", "expected a string, found \(element.typeName)")
                return nil
            }
            strings.append(text)
        }
        return strings
    }
}
