/// Typed reads of a JSON object's members, for the decoders of what the server writes (journal
/// entries, problem documents, the route list): `.some(nil)` when a member is absent or null,
/// nil when it holds another type, so a decoder tells "not there" from "not this shape".
struct JSONMembers {
    let object: JSONObject

    init(_ object: JSONObject) {
        self.object = object
    }

    func string(_ key: String) -> String?? {
        member(key) { $0.stringValue }
    }

    func int(_ key: String) -> Int?? {
        member(key) { if case .int(let number) = $0 { number } else { nil } }
    }

    func array<Element>(_ key: String, _ element: (JSONValue) -> Element?) -> [Element]?? {
        member(key) { value -> [Element]? in
            guard let elements = value.arrayValue else { return nil }
            var read: [Element] = []
            for item in elements {
                guard let decoded = element(item) else { return nil }
                read.append(decoded)
            }
            return read
        }
    }

    private func member<Value>(_ key: String, _ read: (JSONValue) -> Value?) -> Value?? {
        guard let value = object[key] else { return .some(nil) }
        if case .null = value { return .some(nil) }
        guard let typed = read(value) else { return nil }
        return .some(typed)
    }
}
