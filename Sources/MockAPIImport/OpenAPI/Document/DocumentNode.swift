import Foundation
import MockAPICore

/// A value somewhere in an OpenAPI document (or a file it `$ref`s), with where it is: the file
/// (an index into `OpenAPIDocument`'s files, so relative `$ref`s inside it resolve from there)
/// and its JSON pointer (`#/paths/~1files~1{id}/get`), which warnings name.
struct DocumentNode {
    let value: JSONValue
    let file: Int
    let pointer: String

    subscript(key: String) -> DocumentNode? {
        guard case .object(let object) = value, let member = object[key] else { return nil }
        return DocumentNode(value: member, file: file, pointer: pointer + "/" + Self.escape(key))
    }

    /// Members of an object, in document order; empty for anything else.
    var members: [(key: String, node: DocumentNode)] {
        guard case .object(let object) = value else { return [] }
        return object.members.map { ($0.key, DocumentNode(value: $0.value, file: file, pointer: pointer + "/" + Self.escape($0.key))) }
    }

    /// Elements of an array; empty for anything else.
    var elements: [DocumentNode] {
        guard case .array(let array) = value else { return [] }
        return array.enumerated().map { DocumentNode(value: $1, file: file, pointer: "\(pointer)/\($0)") }
    }

    var string: String? { value.stringValue }
    var isObject: Bool { value.objectValue != nil }

    var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A number as a Double (a bound above Int64 is read as a Double).
    // Not inlined: Swift 6.3.1's optimizer (CopyPropagation) crashes on this switch inlined into
    // an optional chain's `map` closure (`node[key]?.number.map { … }`), in release builds only.
    @inline(never)
    var number: Double? {
        switch value {
        case .int(let int): Double(int)
        case .double(let double): double
        default: nil
        }
    }

    /// The `$ref` this node is, if it is one.
    var reference: String? { self["$ref"]?.string }

    /// JSON pointer escaping (RFC 6901): `~` is `~0`, `/` is `~1`.
    static func escape(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func unescape(_ token: Substring) -> String {
        let decoded = token.removingPercentEncodingIfNeeded
        guard decoded.contains("~") else { return decoded }
        return decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}

extension Substring {
    /// `$ref`s are URIs: `%7B` in a pointer is `{`.
    fileprivate var removingPercentEncodingIfNeeded: String {
        guard contains("%") else { return String(self) }
        return String(self).removingPercentEncoding ?? String(self)
    }
}
