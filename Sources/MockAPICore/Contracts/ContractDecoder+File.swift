/// Step one: a file's JSON as a `ContractFile`, every key and type checked where it is written.
/// The parts a file has are read in their own files: `+Request`, `+Query`, `+JSONSchema`, `+Responses`.
extension ContractDecoder {
    /// Nil only when the root is not an object. A missing or wrong required value is a problem and
    /// a placeholder, so the second step still finds the problems it alone can see (a missing fixture).
    mutating func decodeFile(_ root: JSONValue) -> ContractFile? {
        guard let object = expectObject(root, at: "$") else { return nil }
        checkKeys(object, ContractKey.self, at: "$")
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
        if let value = object[ContractKey.resource] { contract.resource = decodeResource(value, at: "$.resource") }
        let refusals =
            [("$.refusal", contract.refusal), ("$.request.credentials.refusal", contract.credentials?.refusal)]
            + contract.headers.map { ("$.request.headers.\($0.name).refusal", $0.refusal) }
        for case let (path, name?) in refusals where !contract.responses.contains(where: { $0.name == name }) {
            problem(at: path, "no response named \"\(name)\" (have: \(contract.responses.map(\.name).joined(separator: ", ")))")
        }
        return contract
    }

    mutating func decodeSequence(_ value: JSONValue, responses: [ContractFile.Response], at path: String) -> [String]? {
        guard let names = stringArray(value, at: path) else { return nil }
        if names.isEmpty { problem(at: path, "a sequence needs at least one response name") }
        for (offset, name) in names.enumerated() where !responses.contains(where: { $0.name == name }) {
            problem(at: "\(path)[\(offset)]", "no response named \"\(name)\" (have: \(responses.map(\.name).joined(separator: ", ")))")
        }
        return names.isEmpty ? nil : names
    }

    /// `_defaults.json`: the query keys and headers every request of the set may (or must) carry.
    mutating func decodeDefaults(_ root: JSONValue) -> SetDefaults {
        guard let object = expectObject(root, at: "$") else { return SetDefaults() }
        checkKeys(object, DefaultsKey.self, at: "$")
        _ = optionalString(object, "description", at: "$")
        let headers = object["headers"].map { decodeHeaders($0, at: "$.headers") } ?? []
        for header in headers where header.refusal != nil {
            problem(at: "$.headers.\(header.name).refusal", "a refusal names one of a contract's responses: set it in the contracts")
        }
        return SetDefaults(query: object["query"].map { decodeQuery($0, at: "$.query") } ?? [], headers: headers)
    }
}

/// A contract file's top level.
package enum ContractKey: String, FormatKey {
    case schema = "$schema"
    case name
    case description
    case request
    case responses
    case sequence
    case refusal
    case resource
}

/// `_defaults.json`: `$schema` and `description` are read and not kept.
package enum DefaultsKey: String, FormatKey {
    case schema = "$schema"
    case description
    case query
    case headers
}
