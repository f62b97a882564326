public import Foundation

extension DecodingFailure {
    /// Describes `error` for a person: the JSON path with the body's own key spelling, and what
    /// was expected against what `data` actually holds there.
    public init(_ error: DecodingError, data: Data, endpoint: String) {
        let root = try? JSONDecoder().decode(JSONValue.self, from: data)
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let located = Self.locate(context.codingPath, in: root)
            self.init(
                endpoint: endpoint, path: located.path,
                message: "expected \(Self.name(of: type)), found \(located.value?.kind ?? "nothing")" + Self.dateHint(expected: type, found: located.value))
        case .keyNotFound(let key, let context):
            let parent = Self.locate(context.codingPath, in: root)
            if case .object(let members)? = parent.value, key.stringValue != Self.snakeCase(key.stringValue),
                members[Self.snakeCase(key.stringValue)] != nil
            {
                // The body has the key in snake_case and the decoder asked for it verbatim.
                let path = parent.path.isEmpty ? key.stringValue : "\(parent.path).\(key.stringValue)"
                self.init(
                    endpoint: endpoint, path: path,
                    message: "missing key (the body has \(Self.snakeCase(key.stringValue)): does the decoder convert from snake_case?)")
                return
            }
            let located = Self.locate(context.codingPath + [key], in: root)
            if case .object(let members)? = parent.value, let near = Self.nearKey(to: key.stringValue, among: members.keys) {
                // A hand-written decoder's own spelling: say which key the body has instead.
                let path = parent.path.isEmpty ? key.stringValue : "\(parent.path).\(key.stringValue)"
                self.init(
                    endpoint: endpoint, path: path,
                    message: "missing key (the body has \(near) here: does the decoder's CodingKey spell it another way?)")
                return
            }
            self.init(endpoint: endpoint, path: located.path, message: "missing key")
        case .dataCorrupted(let context):
            let located = Self.locate(context.codingPath, in: root)
            self.init(endpoint: endpoint, path: located.path, message: Self.corruptionMessage(context, data: data, isJSON: root != nil))
        @unknown default:
            self.init(endpoint: endpoint, path: "", message: "\(error)")
        }
    }

    /// A `Date` decoded with the wrong `dateDecodingStrategy` fails as a Double or String mismatch
    /// (Foundation names the type it reads, not Date): say which strategy the value looks like.
    static func dateHint(expected type: Any.Type, found value: JSONValue?) -> String {
        let strategy: String
        switch value {
        case .string(let text)? where type == Double.self && looksLikeISO8601(text):
            strategy = ".iso8601"
        case .int(let number)? where type == String.self:
            guard let named = epochStrategy(Double(number)) else { return "" }
            strategy = named
        case .double(let number)? where type == String.self:
            guard let named = epochStrategy(number) else { return "" }
            strategy = named
        default:
            return ""
        }
        return " (if this is a Date, the value looks like dateDecodingStrategy \(strategy): is the decoder set to it?)"
    }

    /// Seconds or milliseconds since 1970 for a date between 1973 and 2286.
    private static func epochStrategy(_ number: Double) -> String? {
        switch abs(number) {
        case 1e8..<1e10: ".secondsSince1970"
        case 1e11..<1e13: ".millisecondsSince1970"
        default: nil
        }
    }

    private static func looksLikeISO8601(_ text: String) -> Bool {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return plain.date(from: text) != nil || fractional.date(from: text) != nil
    }

    /// Says what `dataCorrupted` means, which Foundation does not always say itself.
    private static func corruptionMessage(_ context: DecodingError.Context, data: Data, isJSON: Bool) -> String {
        if data.isEmpty { return "empty body" }
        if !isJSON { return "invalid JSON" }
        // Foundation's JSONDecoder on Linux reports a number that does not fit its type (1.5 or 1e30
        // for an Int) as "not valid JSON" without a path, although the body is valid JSON.
        if context.codingPath.isEmpty, context.debugDescription.hasPrefix("The given data was not valid JSON") {
            return "a number does not fit its Swift type (the decoder gives no path)"
        }
        return context.debugDescription
    }

    /// A short name for an expected type: `Int`, `String`, `Array`, `Object`.
    private static func name(of type: Any.Type) -> String {
        switch type {
        case is [Any].Type: "Array"
        case is [String: Any].Type: "Object"
        default: String(describing: type)
        }
    }

    /// Walks `codingPath` through `root`, rendering `[3].project.creator.id` with the keys as the
    /// body spells them (a snake_case body key for a camelCase Swift key), and the value found.
    private static func locate(
        _ codingPath: [any CodingKey],
        in root: JSONValue?
    ) -> (path: String, value: JSONValue?) {
        var path = ""
        var current = root
        for key in codingPath {
            if case .array(let elements)? = current, let index = key.intValue {
                path += "[\(index)]"
                current = elements.indices.contains(index) ? elements[index] : nil
                continue
            }
            var name = key.stringValue
            if case .object(let members)? = current {
                // A Swift key the body lacks is looked up, or reported missing, in its snake_case spelling.
                if members[name] == nil {
                    name = snakeCase(name)
                }
                current = members[name]
            } else {
                current = nil
            }
            path += path.isEmpty ? name : ".\(name)"
        }
        return (path, current)
    }

    /// `creatorId` → `creator_id`, `avatarURL` → `avatar_url`: the inverse of `.convertFromSnakeCase`.
    static func snakeCase(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previousIsLower = !characters[index - 1].isUppercase && characters[index - 1] != "_"
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previousIsLower || (nextIsLower && characters[index - 1].isUppercase) {
                    result += "_"
                }
            }
            result += character.lowercased()
        }
        return result
    }
}
