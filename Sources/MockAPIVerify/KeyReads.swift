import DecodingDiagnostics
import Foundation
import MockAPICore

/// Which body keys a model's own `init(from:)` reads, found by decoding the body a second time
/// through a `Decoder` that records every key asked for. Drift from re-encoding sees only what
/// the model encodes: a hand-written `init(from:)` that reads `backers` where the body has
/// `backers_count` (and falls back to a default) and encodes `backers_count` looks clean there.
///
/// Key paths are in the body's spelling with arrays folded (`projects[].creator.id`), as
/// ``KeyPaths`` lists them.
struct KeyReads {
    /// Every body key the decoder read (its value decoded, or a container opened on it).
    var read: Set<String> = []
    /// Keys the decoder asked for that the body does not have, each with the body keys beside it.
    var absent: [Absent] = []

    struct Absent {
        /// Where the object is in the body (`""` for the top level).
        var parent: String
        /// The key as the decoder asked for it (its `CodingKey`'s `stringValue`).
        var asked: String
        /// The object's keys in the body's spelling.
        var siblings: [String]
    }

    /// Keys asked for and absent whose likely intended body key was never read, as
    /// `backers (the body has backers_count)`; an optional key simply absent from the body,
    /// with no unread key near its name, is no finding.
    func misspelt() -> [String] {
        var seen: Set<String> = []
        return absent.compactMap { absent in
            let path = absent.parent.isEmpty ? absent.asked : "\(absent.parent).\(absent.asked)"
            let unread = absent.siblings.filter { !read.contains(absent.parent.isEmpty ? $0 : "\(absent.parent).\($0)") }
            guard let near = DecodingFailure.nearKey(to: absent.asked, among: unread), Self.alike(absent.asked, near),
                seen.insert(path).inserted
            else { return nil }
            return "\(path) (the body has \(near))"
        }
    }

    /// Near enough for a key that may simply be optional: nearly the same length (a typo), or
    /// one name's words leading or ending the other's (`backers` in `backers_count`), not a
    /// word inside another (`name` in `nickname`).
    static func alike(_ a: String, _ b: String) -> Bool {
        let (x, y) = (words(a), words(b))
        if abs(x.joined().count - y.joined().count) <= 2 { return true }
        let (short, long) = x.count <= y.count ? (x, y) : (y, x)
        return long.starts(with: short) || long.reversed().starts(with: short.reversed())
    }

    /// `backers_count`, `backersCount` and `backers-count` are all `["backers", "count"]`.
    private static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character == "_" || character == "-" || (character.isUppercase && !current.isEmpty) {
                if !current.isEmpty { words.append(current) }
                current = character.isLetter || character.isNumber ? String(character).lowercased() : ""
            } else {
                current.append(Character(character.lowercased()))
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// How a `JSONDecoder` maps body keys to the keys a `CodingKey` spells.
    enum KeyStrategy {
        case useDefaultKeys
        case convertFromSnakeCase

        init?(_ strategy: JSONDecoder.KeyDecodingStrategy) {
            switch strategy {
            case .useDefaultKeys: self = .useDefaultKeys
            case .convertFromSnakeCase: self = .convertFromSnakeCase
            default: return nil
            }
        }

        /// `JSONDecoder`'s own conversion: `_`-separated words, every word after the first
        /// capitalized (`backers_count` is `backersCount`, `user_ID` is `userId`), leading and
        /// trailing underscores kept.
        func decoderKey(_ key: String) -> String {
            guard case .convertFromSnakeCase = self, key.contains("_") else { return key }
            guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
            var last = key.index(before: key.endIndex)
            while last > first, key[last] == "_" { last = key.index(before: last) }
            let words = key[first...last].split(separator: "_", omittingEmptySubsequences: true)
            guard words.count > 1 else { return key }
            let joined = String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
            return String(key[..<first]) + joined + String(key[key.index(after: last)...])
        }
    }

    /// The reads of `M.init(from:)` on `data`, or nil when the second decode fails (the recorder
    /// cannot mirror every decoder setting, so an answer it cannot reproduce is no answer).
    /// Dates, URLs, `Data` and `Decimal` are taken as read without decoding: their strategies
    /// are the decoder's, and the first decode already proved them.
    static func of<M: Decodable>(_ type: M.Type, in data: Data, keys: KeyStrategy, userInfo: [CodingUserInfoKey: Any]) -> KeyReads? {
        guard let value = try? JSONParser.parse(Array(data)) else { return nil }
        let log = Log()
        let decoder = RecordingDecoder(value: value, path: "", codingPath: [], log: log, keys: keys, userInfo: userInfo)
        guard (try? decoder.decodeValue(M.self)) != nil else { return nil }
        return log.reads
    }

    final class Log {
        var reads = KeyReads()
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct RecordingDecoder: Decoder {
    var value: JSONValue
    /// The body path of `value`, arrays folded.
    var path: String
    var codingPath: [any CodingKey]
    var log: KeyReads.Log
    var keys: KeyReads.KeyStrategy
    var userInfo: [CodingUserInfoKey: Any]

    func child(_ value: JSONValue, path: String, key: any CodingKey) -> RecordingDecoder {
        RecordingDecoder(value: value, path: path, codingPath: codingPath + [key], log: log, keys: keys, userInfo: userInfo)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.typeName)"))
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Date.Type: return Date(timeIntervalSince1970: 0) as! T
        case is URL.Type: return URL(fileURLWithPath: "/") as! T
        case is Data.Type: return Data() as! T
        case is Decimal.Type: return Decimal(0) as! T
        default: return try T(from: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedReader<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedReader(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueReader(decoder: self) }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var decoder: RecordingDecoder
    /// Decoder key → (body key, value); the first of two body keys that convert alike wins.
    var members: [String: (body: String, value: JSONValue)] = [:]
    var bodyKeys: [String]

    init(decoder: RecordingDecoder, object: JSONObject) {
        self.decoder = decoder
        bodyKeys = object.keys
        for (key, value) in object.members where members[decoder.keys.decoderKey(key)] == nil {
            members[decoder.keys.decoderKey(key)] = (key, value)
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { bodyKeys.compactMap { Key(stringValue: decoder.keys.decoderKey($0)) } }

    /// The member under `key`, marked read; an absent key is logged with the object's keys.
    private func member(_ key: Key) -> (path: String, value: JSONValue)? {
        guard let found = members[key.stringValue] else {
            decoder.log.reads.absent.append(.init(parent: decoder.path, asked: key.stringValue, siblings: bodyKeys))
            return nil
        }
        let path = decoder.path.isEmpty ? found.body : "\(decoder.path).\(found.body)"
        decoder.log.reads.read.insert(path)
        return (path, found.value)
    }

    private func notFound(_ key: Key) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
    }

    func contains(_ key: Key) -> Bool {
        if members[key.stringValue] != nil { return true }
        decoder.log.reads.absent.append(.init(parent: decoder.path, asked: key.stringValue, siblings: bodyKeys))
        return false
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = member(key) else { throw notFound(key) }
        if case .null = found.value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let found = member(key) else { throw notFound(key) }
        return try decoder.child(found.value, path: found.path, key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard let found = member(key) else { throw notFound(key) }
        return try decoder.child(found.value, path: found.path, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let found = member(key) else { throw notFound(key) }
        return try decoder.child(found.value, path: found.path, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = AnyKey(stringValue: "super")
        guard let found = members["super"] else { throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no super")) }
        return decoder.child(found.value, path: decoder.path.isEmpty ? found.body : "\(decoder.path).\(found.body)", key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        guard let found = member(key) else { throw notFound(key) }
        return decoder.child(found.value, path: found.path, key: key)
    }
}

private struct UnkeyedReader: UnkeyedDecodingContainer {
    var decoder: RecordingDecoder
    var elements: [JSONValue]
    var currentIndex = 0

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> RecordingDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "unkeyed container is at end"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], path: decoder.path + "[]", key: AnyKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if case .null = elements[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueReader: SingleValueDecodingContainer {
    var decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = decoder.value else { throw decoder.mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = decoder.value else { throw decoder.mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch decoder.value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw decoder.mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// An integer of any width: JSONDecoder takes `1.0` for an `Int` too.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch decoder.value {
        case .int(let number):
            if let exact = I(exactly: number) { return exact }
        case .double(let number):
            if let exact = I(exactly: number) { return exact }
        default: break
        }
        throw decoder.mismatch(type)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
