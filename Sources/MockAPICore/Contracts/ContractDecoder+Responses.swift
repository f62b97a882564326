/// A contract's `responses`: status, fixture or body, headers, `when`, delay, fault and the body's `schema`.
extension ContractDecoder {
    mutating func decodeResponses(_ value: JSONValue, at path: String) -> [ContractFile.Response] {
        guard let object = expectObject(value, at: path) else { return [] }
        if object["default"] == nil { problem(at: path, "missing the \"default\" response") }
        return object.members.compactMap { name, spec in
            let here = "\(path).\(name)"
            guard let spec = expectObject(spec, at: here) else { return nil }
            checkKeys(spec, ResponseKey.self, at: here)
            var status = 200
            if case .int(let n)? = spec["status"], (100...599).contains(n) {
                status = n
            } else {
                problem(at: "\(here).status", spec["status"].map { "expected an HTTP status 100-599, found \($0.serialized)" } ?? "missing key \"status\"")
            }
            var response = ContractFile.Response(name: name, status: status, fixture: optionalString(spec, "fixture", at: here), body: spec["body"])
            if spec["fixture"] != nil, spec["body"] != nil { problem(at: here, "a response has \"fixture\" or \"body\", not both") }
            if let headers = spec["headers"], let headerObject = expectObject(headers, at: "\(here).headers") {
                // A list is the header sent once per value, in order (`Set-Cookie`).
                response.headers = headerObject.members.flatMap { key, value -> [ContractFile.HeaderField] in
                    if let text = value.stringValue { return [ContractFile.HeaderField(key, text)] }
                    if case .array(let items) = value, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) {
                        return items.map { ContractFile.HeaderField(key, $0.stringValue!) }
                    }
                    problem(at: "\(here).headers.\(key)", "expected a string or a list of strings, found \(value.typeName)")
                    return []
                }
            }
            response.when = spec["when"].flatMap { decodeMatch($0, at: "\(here).when") }
            if let delay = spec["delay"] { response.delay = decodeLatency(delay, at: "\(here).delay") }
            if spec["fault"] != nil { response.fault = enumValue(spec, "fault", Fault.self, at: here) }
            response.placeholders = optionalBool(spec, "placeholders", at: here) ?? true
            if let shape = spec["schema"], let object = expectObject(shape, at: "\(here).schema") {
                checkKeys(object, allowed: JSONSchemaKey.itemNames, at: "\(here).schema")
                response.shape = decodeSchema(object, at: "\(here).schema")
            }
            return response
        }
    }

    /// `800`, `{"min": 200, "max": 800}` or `{"median": 300, "sigma": 0.5}`, in milliseconds, each
    /// within `NumberRange.delayMilliseconds` (an hour; `--max-delay` caps what is served).
    mutating func decodeLatency(_ value: JSONValue, at path: String) -> Latency? {
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
            if let low = number(object[UniformDelayKey.min]), let high = number(object[UniformDelayKey.max]), object.keys.count == 2, high >= low {
                return .uniform(min: low, max: high)
            }
            if let median = number(object[LogNormalDelayKey.median]), let sigma = number(object[LogNormalDelayKey.sigma], in: .delaySigma), object.keys.count == 2 {
                return .logNormal(median: median, sigma: sigma)
            }
        }
        problem(
            at: path,
            "expected milliseconds from \(range) (800), {\"min\": 200, \"max\": 800} or {\"median\": 300, \"sigma\": 0.5} "
                + "(sigma \(NumberRange.delaySigma)), found \(value.serialized)")
        return nil
    }
}

/// One of `responses`.
package enum ResponseKey: String, FormatKey {
    case status
    case fixture
    case body
    case headers
    case when
    case delay
    case fault
    case placeholders
    case schema
}

/// A `delay` drawn evenly between two bounds, in milliseconds.
package enum UniformDelayKey: String, FormatKey {
    case min
    case max
}

/// A `delay` drawn around a median, as network latency is.
package enum LogNormalDelayKey: String, FormatKey {
    case median
    case sigma
}
