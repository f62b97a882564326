import Foundation
package import MockAPICore

/// A small seeded generator (SplitMix64): the same contracts on every run and machine.
package struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Contracts that use every key of the format, for property tests of everything that reads or
/// writes the format (the encoder, the editor schema, export and import). Each loads on its own
/// once its fixtures exist (`fixturePaths`); `prefix` keeps generated routes apart in one set.
package enum ContractGenerator {
    package static func contract(_ random: inout SplitMix64, prefix: String = "") -> ContractFile {
        let method = RequestMethod.allCases.randomElement(using: &random)!
        let template = ["/v1/ping", "/v1/projects/{id:int}", "/v1/categories/{slug:path}", "/v1/users//self", "/v1/{a}/{b:int}"]
            .randomElement(using: &random)!
        var contract = ContractFile(name: word(&random) + "_\(random.next() % 1000)", method: method, path: prefix + template)
        if Bool.random(using: &random) { contract.description = "A \"quoted\" line\nand ünïcode ✓" }
        if Bool.random(using: &random) { contract.schema = "../schema/contract.schema.json" }
        contract.query = unique((0..<Int.random(in: 0...3, using: &random)).map { _ in query(&random) }, by: \.name)
        contract.headers = unique((0..<Int.random(in: 0...2, using: &random)).map { _ in header(&random) }, by: \.name)
        let hasBody = ![.GET, .HEAD].contains(method)
        if hasBody, Bool.random(using: &random) {
            contract.json = unique((0..<Int.random(in: 0...3, using: &random)).map { _ in key(&random, depth: 0) }, by: \.key)
        } else if hasBody, Bool.random(using: &random) {
            contract.multipart = unique((0..<Int.random(in: 1...3, using: &random)).map { _ in part(&random) }, by: \.name)
        }
        if contract.json != nil, Int.random(in: 0...3, using: &random) == 0 { contract.body.otherTypes = true }
        // The media types a body may come as: JSON ones for `json`, a form, and ones taken unread (alone too).
        if hasBody, Int.random(in: 0...2, using: &random) == 0 {
            let read: [String] = contract.json != nil ? ["application/json", "application/merge-patch+json", "application/x-www-form-urlencoded"].shuffled(using: &random) : []
            var types = Array(read.prefix(Int.random(in: 1...3, using: &random))) + ["application/octet-stream", "text/plain"].prefix(Int.random(in: read.isEmpty ? 1...2 : 0...2, using: &random))
            if types == ["application/json"] { types.append("text/plain") } // alone, it is the default
            contract.body.contentTypes = types
        }
        var match = RequestMatch()
        if let key = contract.query.first, Bool.random(using: &random) { match.query = [(key.name, key.enumValues?.first ?? "x")] }
        if let key = contract.json?.first, Bool.random(using: &random) { match.json = [(key.key, .string("login"))] }
        if !match.query.isEmpty || !match.json.isEmpty { contract.match = match }
        if Bool.random(using: &random) {
            let parameters = (try? PathTemplate(contract.path))?.parameterNames ?? []
            contract.example = RequestExample(
                path: Dictionary(uniqueKeysWithValues: parameters.map { ($0, "42") }), query: [.init("ids", "1"), .init("ids", "2"), .init("page", "3")],
                headers: [.init("Authorization", "token abc")], json: Bool.random(using: &random) ? ["amount": 45] : nil)
        }
        let names = ["default"] + unique((0..<Int.random(in: 0...3, using: &random)).map { _ in word(&random) }, by: \.self).filter { $0 != "default" }
        contract.responses = names.map { response($0, &random) }
        if Bool.random(using: &random) { contract.sequence = names.shuffled(using: &random) }
        if Bool.random(using: &random) { contract.refusal = names.randomElement(using: &random) }
        if !contract.headers.isEmpty, Bool.random(using: &random) { contract.headers[0].refusal = names.randomElement(using: &random) }
        if Int.random(in: 0..<4, using: &random) == 0 {
            let all: [CredentialExpectation.Credential] = [.header("X-API-Key"), .header("Authorization", prefix: "Basic "), .query("clientKey")]
            contract.credentials = CredentialExpectation(
                anyOf: Array(all.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))),
                refusal: Bool.random(using: &random) ? names.randomElement(using: &random) : nil)
        }
        // The body rules and the response key left at their defaults above; drawn last, so the draws above stay as they were.
        let checksBody = contract.json != nil || contract.multipart != nil || contract.body.contentTypes != nil
        if checksBody, Int.random(in: 0...3, using: &random) == 0 { contract.body.required = false }
        if contract.json != nil, Int.random(in: 0...3, using: &random) == 0 { contract.body.nullable = true }
        if contract.json != nil, Int.random(in: 0...3, using: &random) == 0 { contract.body.otherKeys = true }
        if Int.random(in: 0...3, using: &random) == 0 { contract.responses[0].placeholders = false }
        // A create on its own is a whole resource: named for its path, so no two contracts of a set share one.
        if contract.method == .POST, contract.json != nil, Bool.random(using: &random) {
            let name = "r" + contract.path.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? String($0) : "_" }.joined()
            // The fixtures `fixturePaths` names have integer ids at "id": uuid ids go under another key.
            let style = ResourceDeclaration.IDStyle.allCases.randomElement(using: &random)
            contract.resource = ResourceDeclaration(
                name: name, id: style, idKey: Bool.random(using: &random) || style == .uuid ? "uid" : nil,
                items: Bool.random(using: &random) ? "/data" : nil)
        }
        // The objects a JSON body may be: the options close it, so the top level names no other keys.
        if contract.json != nil, !contract.body.otherKeys, Int.random(in: 0...3, using: &random) == 0 {
            let options = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                JSONValueSchema(
                    type: .object, properties: unique((0..<Int.random(in: 0...3, using: &random)).map { _ in key(&random, depth: 1) }, by: \.key),
                    otherKeys: Int.random(in: 0...3, using: &random) == 0)
            }
            if Bool.random(using: &random) { contract.body.oneOf = options } else { contract.body.anyOf = options }
        }
        return contract
    }

    static func word(_ random: inout SplitMix64) -> String {
        ["page2", "invalid", "not_found", "empty", "gone", "slow", "x-y.z", "Ids"].randomElement(using: &random)!
    }

    static func query(_ random: inout SplitMix64) -> QueryExpectation {
        let type = QueryValueType.allCases.randomElement(using: &random)!
        let values: [String] =
            switch type {
            case .string: ["magic", "newest", "10"]
            case .int: ["0", "10", "-3", "9223372036854775807"]
            case .number: ["1.5", "2", "0.25"]
            case .bool: ["true", "0"]
            }
        var query = QueryExpectation(
            name: ["page", "sort", "ids", "per_page", "q"].randomElement(using: &random)!, type: type,
            required: Bool.random(using: &random), array: Bool.random(using: &random),
            repeated: Bool.random(using: &random), enumValues: Bool.random(using: &random) ? values : nil)
        // Nested parts: a list's positions (its bare form repeated), an object's named or any parts, with or without the bare key.
        switch Int.random(in: 0...3, using: &random) {
        case 0 where query.array:
            query.arrayStyle = .repeated
            query.nested = .init()
        case 0, 1:
            guard !query.array else { break }
            query.nested = .init(keys: Bool.random(using: &random) ? ["gt", "lte"] : nil, plain: Bool.random(using: &random))
        default: break
        }
        return query
    }

    static func header(_ random: inout SplitMix64) -> HeaderExpectation {
        let prefixes = [[], ["token "], ["token ", "Basic "]].randomElement(using: &random)!
        return HeaderExpectation(
            name: ["Authorization", "X-Client", "accept-language"].randomElement(using: &random)!,
            required: Bool.random(using: &random), prefixes: prefixes,
            enumValues: Bool.random(using: &random) ? ["en", "de"] : nil)
    }

    static func key(_ random: inout SplitMix64, depth: Int) -> JSONKeyExpectation {
        JSONKeyExpectation(
            key: ["amount", "reward_id", "backing", "tags", "a b", "ü"].randomElement(using: &random)!,
            required: Bool.random(using: &random), schema: schema(&random, depth: depth))
    }

    static func schema(_ random: inout SplitMix64, depth: Int) -> JSONValueSchema {
        switch Int.random(in: 0...(depth < 2 ? 4 : 2), using: &random) {
        case 0: return JSONValueSchema(type: JSONValueType.allCases.randomElement(using: &random)!)
        case 1: return JSONValueSchema(type: .string, enumValues: ["usd", "eur"], nullable: Bool.random(using: &random))
        case 2:
            if Bool.random(using: &random) { return JSONValueSchema(type: .string, format: ["date-time", "date", "uuid"].randomElement(using: &random)!) }
            return JSONValueSchema(type: .int, enumValues: [1, 2, .int(Int.max)], format: Bool.random(using: &random) ? "int64" : nil)
        case 3:
            let keys = unique((0..<Int.random(in: 0...3, using: &random)).map { _ in key(&random, depth: depth + 1) }, by: \.key)
            // Other keys allowed beside the listed ones on one object in four.
            return JSONValueSchema(type: .object, properties: keys, otherKeys: Int.random(in: 0...3, using: &random) == 0)
        default: return JSONValueSchema(type: .array, items: schema(&random, depth: depth + 1), minItems: Bool.random(using: &random) ? 1 : nil)
        }
    }

    /// A response's shape: a schema, or on one response in three the shapes of a `oneOf` or an `anyOf`.
    static func shape(_ random: inout SplitMix64) -> JSONValueSchema {
        let first = schema(&random, depth: 0)
        guard Int.random(in: 0...2, using: &random) == 0 else { return first }
        let options = [first, schema(&random, depth: 1)]
        return Bool.random(using: &random) ? JSONValueSchema(oneOf: options) : JSONValueSchema(anyOf: options)
    }

    static func part(_ random: inout SplitMix64) -> PartExpectation {
        PartExpectation(
            name: ["photo", "caption", "file"].randomElement(using: &random)!, required: Bool.random(using: &random),
            filename: Bool.random(using: &random), contentTypes: Bool.random(using: &random) ? ["image/png", "image/jpeg"] : nil,
            maxBytes: Bool.random(using: &random) ? 1_048_576 : nil, checkBytes: Bool.random(using: &random))
    }

    static func response(_ name: String, _ random: inout SplitMix64) -> ContractFile.Response {
        var response = ContractFile.Response(name: name, status: [200, 201, 204, 404, 422, 599, 100].randomElement(using: &random)!)
        switch Int.random(in: 0...2, using: &random) {
        case 0: response.fixture = "\(name)/body.json"
        case 1: response.body = ["data": [1, .double(2.5), "three", nil, ["nested": true]], "next": "{{baseURL}}/v1/ping?page=2"]
        default: break
        }
        if Bool.random(using: &random) {
            response.headers = [.init("X-Reason", "deleted"), .init("Set-Cookie", "a=[redacted]; Path=/"), .init("Set-Cookie", "b=2"), .init("Link", "<a>; rel=\"next\"")]
        }
        if Bool.random(using: &random) {
            response.when = RequestMatch(
                query: [("page", "2")], json: [("intent", "signup")], contentType: Bool.random(using: &random) ? "application/x-www-form-urlencoded" : nil)
        }
        response.delay = [nil, .fixed(800), .fixed(12.5), .uniform(min: 200, max: 800), .logNormal(median: 300, sigma: 0.5)].randomElement(using: &random)!
        response.fault = Bool.random(using: &random) ? Fault.allCases.randomElement(using: &random) : nil
        if Bool.random(using: &random) { response.shape = shape(&random) }
        return response
    }

    /// The fixture files a generated contract names, with a body for each.
    package static func fixturePaths(of contract: ContractFile) -> [String] {
        contract.responses.compactMap(\.fixture)
    }

    static func unique<T, Key: Hashable>(_ items: [T], by key: KeyPath<T, Key>) -> [T] {
        var seen: Set<Key> = []
        return items.filter { seen.insert($0[keyPath: key]).inserted }
    }
}
