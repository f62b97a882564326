/// An RFC 6901 JSON pointer (`/data/0/id`): where a value sits in a document.
package struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    /// Unescaped reference tokens; empty for the whole document.
    package let tokens: [String]

    package init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Nil when `text` is neither empty nor starts with `/`, or has a `~` not followed by 0 or 1.
    package init?(_ text: String) {
        if text.isEmpty {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for token in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            // `~1` is `/` and `~0` is `~`, read in that order (RFC 6901 §4); any other `~` is malformed.
            var unescaped = ""
            var iterator = token.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else {
                    unescaped.append(character)
                    continue
                }
                switch iterator.next() {
                case "0": unescaped.append("~")
                case "1": unescaped.append("/")
                default: return nil
                }
            }
            tokens.append(unescaped)
        }
        self.tokens = tokens
    }

    package var description: String {
        tokens.map { token in
            "/" + token.map { $0 == "~" ? "~0" : $0 == "/" ? "~1" : String($0) }.joined()
        }.joined()
    }

    /// The value the pointer names in `document`, or nil when there is none.
    package func value(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// `document` with the value the pointer names replaced; nil when the pointer names nothing.
    package func replacing(in document: JSONValue, with value: JSONValue) -> JSONValue? {
        Self.replace(tokens[...], in: document, with: value)
    }

    private static func replace(_ tokens: ArraySlice<String>, in document: JSONValue, with value: JSONValue) -> JSONValue? {
        guard let token = tokens.first else { return value }
        switch document {
        case .object(var object):
            guard let member = object[token], let replaced = replace(tokens.dropFirst(), in: member, with: value) else { return nil }
            object[token] = replaced
            return .object(object)
        case .array(var array):
            guard let index = Int(token), array.indices.contains(index),
                let replaced = replace(tokens.dropFirst(), in: array[index], with: value)
            else { return nil }
            array[index] = replaced
            return .array(array)
        default:
            return nil
        }
    }
}
