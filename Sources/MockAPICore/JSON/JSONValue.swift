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
}

/// A JSON object: ordered members plus a key index.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int] = [:]

    public init() {}

    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { index[key].map { members[$0].value } }
        set {
            if let position = index[key] {
                if let newValue { members[position].value = newValue } else { remove(at: position) }
            } else if let newValue {
                index[key] = members.count
                members.append((key, newValue))
            }
        }
    }

    private mutating func remove(at position: Int) {
        members.remove(at: position)
        index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
