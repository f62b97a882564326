/// Query keys with nested parts: `created[gt]=1`, `expand[]=a`, `expand[0]=a`, `metadata[a][b]=x`.
extension RequestValidator {
    /// One key's bare and nested forms: each value by `type` and `enum`, each first part by the
    /// contract's part names (a list's by position), the bare form only where the contract takes it.
    static func nestedQueryViolations(
        _ query: [QueryArgument], _ spec: QueryExpectation,
        _ nested: QueryExpectation.NestedParts
    ) -> [Violation] {
        var found: [Violation] = []
        var bare = 0
        var parts = 0
        var refusedBare = false
        for argument in query {
            let (name, value) = (argument.name, argument.value)
            let location = "query.\(name)"
            if name == spec.name {
                bare += 1
                guard nested.plain || spec.array else {
                    if !refusedBare { found.append(Violation(location, "takes nested parts: send \(spec.name)[\(nested.keys?.first ?? "key")]=…")) }
                    refusedBare = true
                    continue
                }
            } else if isNestedKey(name, of: spec.name) {
                parts += 1
                if let violation = partViolation(name, spec, nested) {
                    found.append(violation)
                    continue
                }
            } else {
                continue
            }
            guard let value else {
                found.append(Violation(location, "has no value (expected \(spec.type.rawValue))"))
                continue
            }
            if spec.arrayStyle == .comma, name == spec.name {
                for element in commaList(value) {
                    if let violation = valueViolation(String(element), spec, at: location) { found.append(violation) }
                }
            } else if let violation = valueViolation(value, spec, at: location) {
                found.append(violation)
            }
        }
        if bare + parts == 0, spec.required {
            found.append(Violation("query.\(spec.name)", "required query key is missing"))
        } else if bare > 1, !refusedBare, !spec.repeated, spec.arrayStyle != .repeated, spec.arrayStyle != .brackets {
            found.append(Violation("query.\(spec.name)", "sent \(bare) times, expected once"))
        }
        return found
    }

    /// The first part of `name[part]…` against the contract's part names, or a list's positions.
    private static func partViolation(_ name: String, _ spec: QueryExpectation, _ nested: QueryExpectation.NestedParts) -> Violation? {
        let rest = name.utf8.dropFirst(spec.name.utf8.count + 1)
        guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else {
            return Violation("query.\(name)", "has no closing \"]\" (expected \(spec.name)[part]=…)")
        }
        let part = rest[..<close]
        if spec.array {
            guard part.allSatisfy(ASCII.isDigit) else {
                return Violation("query.\(name)", "a list's parts are its positions: \(spec.name)[]=… or \(spec.name)[0]=…")
            }
        } else if let keys = nested.keys, !keys.contains(where: { $0.utf8.elementsEqual(part) }) {
            return Violation("query.\(name)", "unexpected part \"\(String(decoding: part, as: UTF8.self))\" (the contract names: \(keys.joined(separator: ", ")))")
        }
        return nil
    }

    /// `created[…` for `created`, without building the string.
    static func isNestedKey(_ name: String, of base: String) -> Bool {
        name.utf8.count > base.utf8.count + 1 && name.utf8.starts(with: base.utf8) && name.utf8.dropFirst(base.utf8.count).first == UInt8(ascii: "[")
    }
}
