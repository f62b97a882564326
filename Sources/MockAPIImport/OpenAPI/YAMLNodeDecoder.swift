import Foundation
import Yams

/// Decodes a composed Yams `Node` as Yams' own `YAMLDecoder` does, but finds a mapping's keys
/// through a dictionary built once per mapping.
///
/// Yams looks each key up by scanning the mapping from the end, so a document with n paths
/// (or any mapping of n keys: schemas, an example object) cost n²/2 node comparisons:
/// 16,000 operations took 99 s, 126,000 did not finish. Here a lookup is O(1).
struct YAMLNodeDecoder {
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func decode<T: Decodable>(_ type: T.Type, from node: Node) throws -> T {
        try NodeDecoding(node: node, userInfo: userInfo, codingPath: []).decodeValue(type)
    }
}

/// One mapping's pairs, `<<` merge keys folded in, indexed by key text (the last duplicate wins, as in Yams).
private final class IndexedMapping {
    let keys: [String]
    let values: [String: Node]

    init(_ mapping: Node.Mapping) {
        var explicit: [(String, Node)] = []
        var merged: [(String, Node)] = []
        for (key, value) in mapping {
            if key.tag.description == Tag.Name.merge.rawValue {
                merged += Self.mergedPairs(value)
            } else if let text = key.string {
                explicit.append((text, value))
            }
        }
        // As Yams: merged keys come first, the first merged mapping wins among them, a written key wins over all.
        var keys: [String] = []
        var values: [String: Node] = [:]
        for (key, value) in merged where values[key] == nil {
            keys.append(key)
            values[key] = value
        }
        for (key, value) in explicit {
            if values[key] == nil { keys.append(key) }
            values[key] = value
        }
        self.keys = keys
        self.values = values
    }

    private static func mergedPairs(_ node: Node) -> [(String, Node)] {
        switch node {
        case .mapping(let mapping):
            let indexed = IndexedMapping(mapping)
            return indexed.keys.compactMap { key in indexed.values[key].map { (key, $0) } }
        case .sequence(let sequence):
            return sequence.flatMap(mergedPairs)
        default:
            return []
        }
    }
}

private struct NodeDecoding: Decoder, SingleValueDecodingContainer {
    let node: Node
    let userInfo: [CodingUserInfoKey: Any]
    let codingPath: [CodingKey]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = node else { throw mismatch(Node.Mapping.self) }
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(decoder: self, mapping: IndexedMapping(mapping)))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .sequence(let sequence) = node else { throw mismatch(Node.Sequence.self) }
        return UnkeyedNodeContainer(decoder: self, elements: Array(sequence))
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func child(_ node: Node, key: CodingKey) -> NodeDecoding {
        NodeDecoding(node: node, userInfo: userInfo, codingPath: codingPath + [key])
    }

    func decodeNil() -> Bool { node.null == NSNull() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard let scalarType = type as? ScalarConstructible.Type else { return try T(from: self) }
        guard case .scalar(let scalar) = node else { throw mismatch(type) }
        guard let value = scalarType.construct(from: scalar) as? T else { throw mismatch(type) }
        return value
    }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        let found: String = switch node {
        case .scalar: "Scalar"
        case .mapping: "Mapping"
        case .sequence: "Sequence"
        case .alias: "Alias"
        }
        return .typeMismatch(expected, .init(codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found \(found) instead."))
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoding
    let mapping: IndexedMapping

    var codingPath: [CodingKey] { decoder.codingPath }
    var allKeys: [Key] { mapping.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { mapping.values[key.stringValue] != nil }

    private func child(_ key: CodingKey) throws -> NodeDecoding {
        guard let node = mapping.values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return decoder.child(node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { try child(SuperKey()) }
    func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoding
    let elements: [Node]
    var currentIndex = 0

    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<T>(_ type: T.Type, _ body: (NodeDecoding) throws -> T) throws -> T {
        let key = IndexKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        let value = try body(decoder.child(elements[currentIndex], key: key))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        // Only a null is consumed (the protocol's contract): a failed check leaves the element to decode.
        guard !isAtEnd, elements[currentIndex].null == NSNull() else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(type) } }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try next(UnkeyedDecodingContainer.self) { try $0.unkeyedContainer() }
    }
    mutating func superDecoder() throws -> Decoder { try next(Decoder.self) { $0 } }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}
