/// `application/x-www-form-urlencoded` bodies, read by the contract's `json` keys: each field by
/// its key (`address[city]` is the key `address`), a scalar's text by its type and enum. A field's
/// text cannot say more (an object or an array key takes any text), and an empty list or object
/// is sent as nothing, so only a required scalar key is missed.
extension RequestValidator {
    static func formViolations(_ fields: [QueryArgument], _ expected: [JSONKeyExpectation], otherKeys: Bool) -> [Violation] {
        var found: [Violation] = []
        for spec in expected {
            var sent = false
            for field in fields where topKey(field.name) == spec.key {
                let (name, value) = (field.name, field.value)
                sent = true
                if let violation = fieldViolation(value ?? "", spec.schema, at: "body.\(name)") { found.append(violation) }
            }
            // An empty list or object is sent as no field at all, so only a required scalar must be there.
            if !sent, spec.required, [.string, .int, .number, .bool].contains(spec.type) {
                found.append(Violation("body.\(spec.key)", "required key is missing"))
            }
        }
        guard !otherKeys else { return found }
        var reported: [Substring] = []
        for field in fields {
            let key = topKey(field.name)
            guard !expected.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }), !reported.contains(key) else { continue }
            reported.append(key)
            found.append(Violation("body.\(key)", "unexpected key (the contract names: \(expected.map(\.key).joined(separator: ", ")))"))
        }
        return found
    }

    /// `address` for `address[city]`.
    private static func topKey(_ name: String) -> Substring {
        name[..<(name.firstIndex(of: "[") ?? name.endIndex)]
    }

    private static func fieldViolation(_ text: String, _ schema: JSONValueSchema, at location: String) -> Violation? {
        // A form has no null: clients send a nullable field's null as `null` or as nothing.
        if schema.nullable, text.isEmpty || text == "null" { return nil }
        let type: QueryValueType? =
            switch schema.type {
            case .string: .string
            case .int: .int
            case .number: .number
            case .bool: .bool
            default: nil
            }
        if let type, !type.accepts(text) { return Violation(location, "expected \(type.rawValue), found \"\(text)\"") }
        if let allowed = schema.enumValues, type != nil,
            !allowed.contains(where: { if case .string(let value) = $0 { value == text } else { $0.serialized == text } })
        {
            return Violation(location, "\"\(text)\" is not one of \(allowed.map(\.serialized).joined(separator: ", "))")
        }
        return nil
    }
}
