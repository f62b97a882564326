/// Checks a request against its contract and lists every violation, not just the first.
package enum RequestValidator {
    package static func violations(of request: IncomingRequest, against expectation: RequestExpectation) -> [Violation] {
        // Each check is skipped when it has nothing to look at: most mock requests have no
        // query and most contracts name no headers, and this runs on every request.
        var found: [Violation] = []
        if !request.query.isEmpty || !expectation.query.isEmpty {
            found += queryViolations(request.query, expectation.query, credentials: expectation.credentials)
        }
        if !expectation.headers.isEmpty { found += headerViolations(request, expectation.headers) }
        if let credentials = expectation.credentials, let violation = credentialViolation(request, credentials) { found.append(violation) }
        if expectation.checksBody { found += bodyViolations(request, expectation) }
        return found
    }

    /// The body against `json` or `multipart` (with both, or with listed media types, the
    /// Content-Type says which), and its rules.
    static func bodyViolations(_ request: IncomingRequest, _ expectation: RequestExpectation) -> [Violation] {
        let rules = expectation.body
        switch request.body {
        case .none where !rules.required, .other(bytes: 0) where !rules.required: return []
        case .json(.null) where rules.nullable: return []
        case .json(let value) where rules.otherTypes && value.objectValue == nil: return []
        default: break
        }
        let essence = request.contentType.map(MediaType.essence)
        if let parts = expectation.multipart,
            expectation.json == nil && rules.contentTypes == nil || essence == "multipart/form-data"
        {
            return partViolations(request, parts, otherParts: rules.otherKeys)
        }
        guard let types = rules.contentTypes else { return jsonViolations(request, expectation.json ?? [], rules: rules) }
        guard let essence, types.contains(essence) else {
            let taken = (types + (expectation.multipart != nil ? ["multipart/form-data"] : [])).joined(separator: ", ")
            return [
                Violation(
                    "body",
                    essence.map { "Content-Type \($0) is not one the contract takes (\(taken))" }
                        ?? "expected a body with Content-Type one of \(taken), found none")
            ]
        }
        guard let keys = expectation.json else { return [] }
        if rules.readsJSON(essence) { return jsonBodyViolations(request.body, keys, rules: rules) }
        // A form is read by `json`'s keys alone: its fields' text cannot tell the options apart.
        if case .form(let fields) = request.body { return formViolations(fields, keys, otherKeys: rules.takesOtherKeys) }
        // An empty form: its required keys are missing.
        if rules.readsForm(essence) { return formViolations([], keys, otherKeys: rules.takesOtherKeys) }
        return [] // a listed type mockapi does not read (text, binary, tar): taken as it is
    }

    /// Query checks by linear scans: a request has a handful of keys, and this runs on every
    /// request, so no dictionaries or sets are built.
    static func queryViolations(_ query: [QueryArgument], _ expected: [QueryExpectation], credentials: CredentialExpectation? = nil) -> [Violation] {
        if query.isEmpty && !expected.contains(where: \.required) { return [] }
        var found: [Violation] = []
        for spec in expected {
            if let nested = spec.nested {
                found += nestedQueryViolations(query, spec, nested)
                continue
            }
            let where_ = "query.\(spec.name)"
            var count = 0
            var sentWithoutBrackets = false
            let brackets = spec.arrayStyle == .brackets
            for argument in query {
                let (name, value) = (argument.name, argument.value)
                guard brackets ? isArrayKey(name, of: spec.name) : name == spec.name else {
                    if brackets, name == spec.name { sentWithoutBrackets = true }
                    continue
                }
                count += 1
                guard let value else {
                    found.append(Violation(where_, "has no value (expected \(spec.type.rawValue))"))
                    continue
                }
                if spec.arrayStyle == .comma {
                    for element in commaList(value) {
                        if let violation = valueViolation(String(element), spec, at: where_) { found.append(violation) }
                    }
                } else if let violation = valueViolation(value, spec, at: where_) {
                    found.append(violation)
                }
            }
            if count == 0, sentWithoutBrackets {
                found.append(Violation(where_, "is an array: send it as \(spec.name)[]=…&\(spec.name)[]=…"))
            } else if count == 0, spec.required {
                found.append(Violation(where_, "required query key is missing"))
            } else if count > 1, !spec.repeated, spec.arrayStyle != .brackets, spec.arrayStyle != .repeated {
                let hint = spec.arrayStyle == .comma ? " (a list here is one key with comma-separated values: \(spec.name)=a,b)" : ""
                found.append(Violation(where_, "sent \(count) times, expected once\(hint)"))
            }
        }
        for (offset, name) in query.lazy.map(\.name).enumerated() where !query[..<offset].contains(where: { $0.name == name }) {
            let known = expected.contains {
                name == $0.name || ($0.nested != nil ? isNestedKey(name, of: $0.name) : $0.arrayStyle == .brackets && isArrayKey(name, of: $0.name))
            }
            // A query credential is no unexpected key (looked up in place: no list made per request).
            if !known, credentials?.anyOf.contains(where: { $0.place == .query && $0.name == name }) != true {
                found.append(Violation("query.\(name)", "unexpected query key (the contract names: \(expected.isEmpty ? "none" : expected.map(\.name).joined(separator: ", ")))"))
            }
        }
        return found
    }

    static func valueViolation(_ value: String, _ spec: QueryExpectation, at location: String) -> Violation? {
        if !spec.type.accepts(value) { return Violation(location, "expected \(spec.type.rawValue), found \"\(value)\"") }
        if let allowed = spec.enumValues, !allowed.contains(value) {
            return Violation(location, "\"\(value)\" is not one of \(allowed.joined(separator: ", "))")
        }
        return nil
    }

    /// `ids[]` for `ids`, without building the string.
    static func isArrayKey(_ name: String, of base: String) -> Bool {
        name.utf8.count == base.utf8.count + 2 && name.hasPrefix(base) && name.hasSuffix("[]")
    }

    /// Nil when any one of the credentials is there: a header (with its prefix) or a query key.
    static func credentialViolation(_ request: IncomingRequest, _ credentials: CredentialExpectation) -> Violation? {
        let given = credentials.anyOf.contains { credential in
            switch credential.place {
            case .header: request.header(credential.name).map { value in credential.prefix.map(value.hasPrefix) ?? true } ?? false
            case .query: request.query.contains { $0.name == credential.name }
            }
        }
        if given { return nil }
        return Violation(CredentialExpectation.location, "no credential given (any one of: \(credentials.anyOf.map(\.summary).joined(separator: "; ")))")
    }

    static func headerViolations(_ request: IncomingRequest, _ expected: [HeaderExpectation]) -> [Violation] {
        expected.compactMap { spec in
            guard let value = request.header(spec.name) else {
                return spec.required ? Violation("header.\(spec.name)", "required header is missing") : nil
            }
            if !spec.prefixes.isEmpty, !spec.prefixes.contains(where: { value.hasPrefix($0) }) {
                let expected = spec.prefixes.map { "\"\($0)\"" }.joined(separator: " or ")
                return Violation("header.\(spec.name)", "expected a value starting with \(expected)")
            }
            if let allowed = spec.enumValues, !allowed.contains(value) {
                return Violation("header.\(spec.name)", "\"\(value)\" is not one of \(allowed.joined(separator: ", "))")
            }
            return nil
        }
    }

    static func jsonViolations(_ request: IncomingRequest, _ expected: [JSONKeyExpectation], rules: BodyRules = BodyRules()) -> [Violation] {
        let contentType = request.contentType.map(MediaType.essence) ?? "none"
        if contentType != "application/json" {
            return [Violation("body", "expected a JSON body (Content-Type: application/json), found Content-Type \(contentType)")]
        }
        return jsonBodyViolations(request.body, expected, rules: rules)
    }

    /// A body read as JSON against the contract's top-level keys, then against its options (when
    /// it has them and the keys every body has are right: an option's report would repeat theirs).
    static func jsonBodyViolations(_ body: IncomingRequest.Body, _ expected: [JSONKeyExpectation], rules: BodyRules) -> [Violation] {
        let object: JSONObject
        switch body {
        case .json(.object(let o)): object = o
        case .json(let other): return [Violation("body", "expected a JSON object, found \(other.typeName)")]
        case .invalidJSON(let failure): return [Violation("body", "not valid JSON: \(failure)")]
        case .none, .other: return [Violation("body", "expected a JSON object, found an empty body")]
        case .multipart: return [Violation("body", "expected a JSON object, found a multipart body")]
        case .form: return [Violation("body", "expected a JSON object, found a form body")]
        }
        guard let (keyword, options) = rules.branches else { return objectViolations(object, expected, otherKeys: rules.otherKeys, at: "body") }
        let found = objectViolations(object, expected, otherKeys: true, at: "body")
        guard found.isEmpty, let violation = optionsViolation(.object(object), keyword, options, at: "body", besides: expected) else { return found }
        return [violation]
    }

    /// An object's keys against their expectations, nested objects and arrays included.
    static func objectViolations(
        _ object: JSONObject, _ expected: [JSONKeyExpectation], otherKeys: Bool = false, at location: String, besides shared: [JSONKeyExpectation] = []
    ) -> [Violation] {
        var found: [Violation] = []
        for spec in expected {
            guard let value = object[spec.key] else {
                if spec.required { found.append(Violation("\(location).\(spec.key)", "required key is missing")) }
                continue
            }
            found += valueViolations(value, spec.schema, at: "\(location).\(spec.key)")
        }
        for key in object.keys where !otherKeys && !expected.contains(where: { $0.key == key }) && !shared.contains(where: { $0.key == key }) {
            found.append(Violation("\(location).\(key)", "unexpected key (the contract names: \(expected.map(\.key).joined(separator: ", ")))"))
        }
        return found
    }

    static func valueViolations(_ value: JSONValue, _ schema: JSONValueSchema, at location: String) -> [Violation] {
        if schema.nullable, case .null = value { return [] }
        guard schema.type.accepts(value) else {
            return [Violation(location, "expected \(schema.type.rawValue), found \(value.typeName)")]
        }
        if let allowed = schema.enumValues, !allowed.contains(value) {
            return [Violation(location, "\(value.serialized) is not one of \(allowed.map(\.serialized).joined(separator: ", "))")]
        }
        if let format = schema.format, case .string(let text) = value, let problem = DateFormat.problem(text, format: format) {
            return [Violation(location, problem)]
        }
        if let (keyword, options) = schema.branches, let violation = optionsViolation(value, keyword, options, at: location) { return [violation] }
        switch value {
        case .object(let object):
            guard let properties = schema.properties else { return [] }
            return objectViolations(object, properties, otherKeys: schema.otherKeys, at: location)
        case .array(let elements):
            if let least = schema.minItems, elements.count < least {
                return [Violation(location, "expected at least \(least) element\(least == 1 ? "" : "s"), found \(elements.count)")]
            }
            guard let items = schema.items else { return [] }
            return elements.enumerated().flatMap { offset, element in valueViolations(element, items, at: "\(location)[\(offset)]") }
        default:
            return []
        }
    }

    /// Options a report names one by one; past them it counts the rest.
    static let optionsNamed = 4

    /// Nil when `value` fits one of `options` (the first that fits ends the search); else one
    /// violation that says, option by option, the first thing each finds wrong. `besides`: keys
    /// every body has (`json`'s), checked already and no unexpected key in an option.
    static func optionsViolation(
        _ value: JSONValue, _ keyword: String, _ options: [JSONValueSchema], at location: String, besides shared: [JSONKeyExpectation] = []
    ) -> Violation? {
        var reasons: [String] = []
        for (offset, option) in options.enumerated() {
            let found =
                if !shared.isEmpty, case .object(let object) = value, let keys = option.properties, option.branches == nil {
                    objectViolations(object, keys, otherKeys: option.otherKeys, at: location, besides: shared)
                } else {
                    valueViolations(value, option, at: location)
                }
            guard let first = found.first else { return nil }
            if offset < optionsNamed { reasons.append("option \(offset + 1): \(first.location): \(first.message)") }
        }
        if options.count > optionsNamed { reasons.append("\(options.count - optionsNamed) more") }
        return Violation(location, "fits none of the \(options.count) options of its \(keyword): \(reasons.joined(separator: "; "))")
    }

    /// `otherParts`: parts the contract does not name are taken (`body.otherKeys`, an open schema).
    static func partViolations(_ request: IncomingRequest, _ expected: [PartExpectation], otherParts: Bool = false) -> [Violation] {
        guard case .multipart(let parts) = request.body else {
            let contentType = request.contentType.map(MediaType.essence) ?? "none"
            return [Violation("body", "expected multipart/form-data, found Content-Type \(contentType)")]
        }
        var found: [Violation] = []
        for spec in expected {
            let matching = parts.filter { $0.name == spec.name }
            let where_ = "part.\(spec.name)"
            guard let part = matching.first else {
                if spec.required { found.append(Violation(where_, "required part is missing")) }
                continue
            }
            if matching.count > 1 { found.append(Violation(where_, "sent \(matching.count) times, expected once")) }
            if spec.filename, (part.filename ?? "").isEmpty { found.append(Violation(where_, "expected a filename in Content-Disposition")) }
            if let allowed = spec.contentTypes {
                let actual = part.contentType.map(MediaType.essence)
                if actual.map({ !allowed.contains($0) }) ?? true {
                    found.append(Violation(where_, "content type \(actual ?? "(none)") is not allowed (allowed: \(allowed.joined(separator: ", ")))"))
                }
            }
            if let max = spec.maxBytes, part.bytes > max {
                found.append(Violation(where_, "\(part.bytes) bytes is over the limit of \(max)"))
            }
            if spec.checkBytes, let declared = part.contentType.map(MediaType.essence),
                let mismatch = ContentSignature.mismatch(declared: declared, bytes: part.leadingBytes, total: part.bytes)
            {
                found.append(Violation(where_, mismatch))
            }
        }
        guard !otherParts else { return found }
        let known = Set(expected.map(\.name))
        var reported: Set<String> = []
        for part in parts where !known.contains(part.name) && reported.insert(part.name).inserted {
            found.append(Violation("part.\(part.name)", "unexpected part (the contract names: \(expected.map(\.name).joined(separator: ", ")))"))
        }
        return found
    }

    /// The elements of a comma-separated list (`ids=1,2`); an empty value is the empty list, as
    /// OpenAPI's `form` style writes one (`ids=`), not one empty element.
    static func commaList(_ value: String) -> [Substring] {
        value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false)
    }
}
