/// The keys one object of the contract format may hold, in the order a written file has them.
///
/// Each object has one table (an enum beside the code that reads the object): the decoder takes
/// its allowed keys and its "did you mean" from it, the encoder its names and order, and
/// `ContractFormatKeyTests` holds `schema/contract.schema.json` and `ContractGenerator` against it.
package protocol FormatKey: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

extension FormatKey {
    package static var names: [String] { allCases.map(\.rawValue) }
}

extension JSONObject {
    subscript<Key: FormatKey>(key: Key) -> JSONValue? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}

/// An object being written: members set in any order, written in its table's order.
struct FormatObject<Key: FormatKey> {
    private var values: [Key: JSONValue] = [:]

    init() {}

    subscript(key: Key) -> JSONValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    var json: JSONObject { JSONObject(Key.allCases.compactMap { key in values[key].map { (key.rawValue, $0) } }) }
}

extension ContractDecoder {
    mutating func checkKeys<Key: FormatKey>(_ object: JSONObject, _: Key.Type, at path: String) {
        checkKeys(object, allowed: Key.names, at: path)
    }
}
