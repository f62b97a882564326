/// A parsed JSON document that keeps object keys in file order.
///
/// Contracts need order (responses are tried in file order) and integers kept apart from
/// fractions (`{id:int}` checks), which `JSONSerialization` does not give us.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type's name as people say it in error messages.
    public var typeName: String {
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

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// A JSON object: ordered members, with a key index only once it is large.
///
/// Contracts and most fixtures have a handful of keys per object, where a linear scan beats
/// hashing; the index is built past `indexThreshold` keys so big objects stay O(1).
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int]?
    private static let indexThreshold = 16

    public init() {}

    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue { members[position].value = newValue } else { remove(at: position) }
            } else if let newValue {
                members.append((key, newValue))
                if index != nil {
                    index![key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                }
            }
        }
    }

    private mutating func remove(at position: Int) {
        members.remove(at: position)
        if index != nil { index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) }) }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
