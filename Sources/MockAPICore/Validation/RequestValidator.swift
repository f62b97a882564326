/// Checks a request against its contract and lists every violation, not just the first.
public enum RequestValidator {
    public static func violations(of request: IncomingRequest, against expectation: RequestExpectation) -> [Violation] {
        // Each check is skipped when it has nothing to look at: most mock requests have no
        // query and most contracts name no headers, and this runs on every request.
        var found: [Violation] = []
        if !request.query.isEmpty || !expectation.query.isEmpty { found += queryViolations(request.query, expectation.query) }
        if !expectation.headers.isEmpty { found += headerViolations(request, expectation.headers) }
        if let keys = expectation.json { found += jsonViolations(request, keys) }
        if let parts = expectation.multipart { found += partViolations(request, parts) }
        return found
    }

    /// Query checks by linear scans: a request has a handful of keys, and this runs on every
    /// request, so no dictionaries or sets are built.
    static func queryViolations(_ query: [(name: String, value: String?)], _ expected: [QueryExpectation]) -> [Violation] {
        if query.isEmpty && !expected.contains(where: \.required) { return [] }
        var found: [Violation] = []
        for spec in expected {
            let where_ = "query.\(spec.name)"
            var count = 0
            var sentWithoutBrackets = false
            for (name, value) in query {
                guard spec.array ? isArrayKey(name, of: spec.name) : name == spec.name else {
                    if spec.array, name == spec.name { sentWithoutBrackets = true }
                    continue
                }
                count += 1
                guard let value else {
                    found.append(Violation(where_, "has no value (expected \(spec.type.rawValue))"))
                    continue
                }
                if !spec.type.accepts(value) {
                    found.append(Violation(where_, "expected \(spec.type.rawValue), found \"\(value)\""))
                } else if let allowed = spec.enumValues, !allowed.contains(value) {
                    found.append(Violation(where_, "\"\(value)\" is not one of \(allowed.joined(separator: ", "))"))
                }
            }
            if count == 0, sentWithoutBrackets {
                found.append(Violation(where_, "is an array: send it as \(spec.name)[]=…&\(spec.name)[]=…"))
            } else if count == 0, spec.required {
                found.append(Violation(where_, "required query key is missing"))
            } else if !spec.array, !spec.repeated, count > 1 {
                found.append(Violation(where_, "sent \(count) times, expected once"))
            }
        }
        for (offset, (name, _)) in query.enumerated() where !query[..<offset].contains(where: { $0.name == name }) {
            let known = expected.contains { $0.array ? isArrayKey(name, of: $0.name) || name == $0.name : name == $0.name }
            if !known {
                found.append(Violation("query.\(name)", "unexpected query key (the contract names: \(expected.isEmpty ? "none" : expected.map(\.name).joined(separator: ", ")))"))
            }
        }
        return found
    }

    /// `ids[]` for `ids`, without building the string.
    private static func isArrayKey(_ name: String, of base: String) -> Bool {
        name.utf8.count == base.utf8.count + 2 && name.hasPrefix(base) && name.hasSuffix("[]")
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

    static func jsonViolations(_ request: IncomingRequest, _ expected: [JSONKeyExpectation]) -> [Violation] {
        let contentType = request.contentType.map(MediaType.essence) ?? "none"
        if contentType != "application/json" {
            return [Violation("body", "expected a JSON body (Content-Type: application/json), found Content-Type \(contentType)")]
        }
        let object: JSONObject
        switch request.body {
        case .json(.object(let o)): object = o
        case .json(let other): return [Violation("body", "expected a JSON object, found \(other.typeName)")]
        case .invalidJSON(let failure): return [Violation("body", "not valid JSON: \(failure)")]
        case .none, .other: return [Violation("body", "expected a JSON object, found an empty body")]
        case .multipart: return [Violation("body", "expected a JSON object, found a multipart body")]
        }
        return objectViolations(object, expected, at: "body")
    }

    /// An object's keys against their expectations, nested objects and arrays included.
    static func objectViolations(_ object: JSONObject, _ expected: [JSONKeyExpectation], at location: String) -> [Violation] {
        var found: [Violation] = []
        for spec in expected {
            guard let value = object[spec.key] else {
                if spec.required { found.append(Violation("\(location).\(spec.key)", "required key is missing")) }
                continue
            }
            found += valueViolations(value, spec.schema, at: "\(location).\(spec.key)")
        }
        for key in object.keys where !expected.contains(where: { $0.key == key }) {
            found.append(Violation("\(location).\(key)", "unexpected key (the contract names: \(expected.map(\.key).joined(separator: ", ")))"))
        }
        return found
    }

    static func valueViolations(_ value: JSONValue, _ schema: JSONValueSchema, at location: String) -> [Violation] {
        guard schema.type.accepts(value) else {
            return [Violation(location, "expected \(schema.type.rawValue), found \(value.typeName)")]
        }
        if let allowed = schema.enumValues, !allowed.contains(value) {
            return [Violation(location, "\(value.serialized) is not one of \(allowed.map(\.serialized).joined(separator: ", "))")]
        }
        switch value {
        case .object(let object):
            guard let properties = schema.properties else { return [] }
            return objectViolations(object, properties, at: location)
        case .array(let elements):
            guard let items = schema.items else { return [] }
            return elements.enumerated().flatMap { offset, element in valueViolations(element, items, at: "\(location)[\(offset)]") }
        default:
            return []
        }
    }

    static func partViolations(_ request: IncomingRequest, _ expected: [PartExpectation]) -> [Violation] {
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
        }
        let known = Set(expected.map(\.name))
        var reported: Set<String> = []
        for part in parts where !known.contains(part.name) && reported.insert(part.name).inserted {
            found.append(Violation("part.\(part.name)", "unexpected part (the contract names: \(expected.map(\.name).joined(separator: ", ")))"))
        }
        return found
    }
}
