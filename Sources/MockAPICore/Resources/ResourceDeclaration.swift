/// `resource`: the contract is one operation on an in-memory collection that lives as long as the
/// server (or the session), so a create-then-read flow reads back what it wrote.
///
/// What the operation is follows from the contract's method and path, as REST spells it: on the
/// collection path `POST` creates and `GET` lists; on the collection path plus one parameter
/// `GET` reads, `PUT` replaces, `PATCH` merges and `DELETE` removes. The contracts of one
/// resource share its `name`; the other keys may be written on any one of them.
package struct ResourceDeclaration: Sendable, Equatable {
    /// How a created item gets its id.
    package enum IDStyle: String, Sendable, CaseIterable {
        /// One more than the largest numeric id so far (seeded items included).
        case sequential
        /// A random UUID, lowercase.
        case uuid
    }

    package var name: String
    package var id: IDStyle?
    /// The item key that holds the id; `id` when no contract says.
    package var idKey: String?
    /// A JSON pointer to the array in the list answer's fixture (`/data`); found at load when the
    /// fixture is an array or has exactly one array member.
    package var items: String?

    package init(name: String, id: IDStyle? = nil, idKey: String? = nil, items: String? = nil) {
        self.name = name
        self.id = id
        self.idKey = idKey
        self.items = items
    }
}

/// `resource`'s keys.
package enum ResourceKey: String, FormatKey {
    case name
    case id
    case idKey
    case items
}

extension ContractDecoder {
    mutating func decodeResource(_ value: JSONValue, at path: String) -> ResourceDeclaration? {
        guard let object = expectObject(value, at: path) else { return nil }
        checkKeys(object, ResourceKey.self, at: path)
        guard let name = requireString(object, ResourceKey.name.rawValue, at: path) else { return nil }
        if name.isEmpty || !name.utf8.allSatisfy({ ASCII.isIdentifier($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) {
            problem(at: "\(path).name", "\"\(name)\" is not a usable resource name: use letters, digits, '_', '.' and '-'")
        }
        var declaration = ResourceDeclaration(name: name)
        if let style = optionalString(object, ResourceKey.id.rawValue, at: path) {
            declaration.id = ResourceDeclaration.IDStyle(rawValue: style)
            if declaration.id == nil {
                let styles = ResourceDeclaration.IDStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                problem(at: "\(path).id", "\"\(style)\" is not an id style: use \(styles)")
            }
        }
        declaration.idKey = optionalString(object, ResourceKey.idKey.rawValue, at: path)
        if declaration.idKey?.isEmpty == true { problem(at: "\(path).idKey", "the id key cannot be empty") }
        declaration.items = optionalString(object, ResourceKey.items.rawValue, at: path)
        if let items = declaration.items, JSONPointer(items) == nil {
            problem(at: "\(path).items", "\"\(items)\" is not a JSON pointer: write \"\" for the whole body or \"/data\" for a member")
        }
        return declaration
    }
}

extension ResourceDeclaration {
    var fileJSON: JSONObject {
        var object = FormatObject<ResourceKey>()
        object[.name] = .string(name)
        object[.id] = id.map { .string($0.rawValue) }
        object[.idKey] = idKey.map(JSONValue.string)
        object[.items] = items.map(JSONValue.string)
        return object.json
    }
}
