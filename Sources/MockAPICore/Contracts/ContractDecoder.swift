/// Reads contract files strictly: unknown keys and wrong types are problems named by their JSON
/// path, and every problem in a file is collected, not just the first.
///
/// Two steps, each in its own file: the file's JSON becomes a `ContractFile` (what it says,
/// `+File`), then the file becomes a `Contract` (its fixtures read, the set's defaults merged,
/// its placeholders checked, `+Resolve`). Problems of both steps are reported together.
struct ContractDecoder {
    let file: String
    let displayFile: String
    let fixtures: FixtureStore
    /// Query keys and headers from `_defaults.json`, under every contract's own.
    let defaults: SetDefaults
    var problems: [LoadProblem] = []

    init(file: String, displayFile: String, fixtures: FixtureStore, defaults: SetDefaults = SetDefaults()) {
        self.file = file
        self.displayFile = displayFile
        self.fixtures = fixtures
        self.defaults = defaults
    }

    /// The contract a file describes, or nil when it has a problem (then `problems` says which).
    mutating func decode(_ root: JSONValue) -> Contract? {
        guard let contractFile = decodeFile(root) else { return nil }
        let contract = resolve(contractFile)
        return problems.isEmpty ? contract : nil
    }

    // MARK: primitives

    mutating func problem(at path: String, _ message: String) {
        problems.append(LoadProblem(file: displayFile, location: .jsonPath(path), message: message))
    }

    mutating func expectObject(_ value: JSONValue, at path: String) -> JSONObject? {
        if case .object(let object) = value { return object }
        problem(at: path, "expected an object, found \(value.typeName)")
        return nil
    }

    mutating func checkKeys(_ object: JSONObject, allowed: [String], at path: String) {
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

    mutating func requireString(_ object: JSONObject, _ key: String, at path: String) -> String? {
        guard object[key] != nil else {
            problem(at: path, "missing key \"\(key)\"")
            return nil
        }
        return optionalString(object, key, at: path)
    }

    mutating func optionalString(_ object: JSONObject, _ key: String, at path: String) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else {
            problem(at: "\(path).\(key)", "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    mutating func optionalBool(_ object: JSONObject, _ key: String, at path: String) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            problem(at: "\(path).\(key)", "expected true or false, found \(value.typeName)")
            return nil
        }
        return flag
    }

    mutating func enumValue<E: RawRepresentable & CaseIterable>(_ object: JSONObject, _ key: String, _: E.Type, at path: String) -> E?
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
    mutating func scalarStrings(_ value: JSONValue, at path: String) -> [String]? {
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

    mutating func stringArray(_ value: JSONValue, at path: String) -> [String]? {
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
