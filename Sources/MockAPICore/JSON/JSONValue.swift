/// A parsed JSON document that keeps object keys in file order.
///
/// Contracts need order (responses are tried in file order) and integers kept apart from
/// fractions (`{id:int}` checks), which `JSONSerialization` does not give us.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type's name as people say it in error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// A JSON object: ordered members, with a key index only once it is large.
///
/// Contracts and most fixtures have a handful of keys per object, where a linear scan beats
/// hashing; the index is built past `indexThreshold` keys so big objects stay O(1).
package struct JSONObject: Sendable, Equatable {
    package private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int]?
    private static let indexThreshold = 16

    package init() {}

    package init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    package var keys: [String] { members.map(\.key) }
    package var isEmpty: Bool { members.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    package subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue { members[position].value = newValue } else { remove(at: position) }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Whether the object has a member named `key`.
    package func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Adds a member the object does not have yet (`contains` said so): the parser's way in,
    /// which looked the key up twice through the subscript.
    mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
        }
    }

    private mutating func remove(at position: Int) {
        members.remove(at: position)
        if index != nil { index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) }) }
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
