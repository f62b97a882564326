import Foundation

/// A string matching a schema's `pattern`, for the common shapes real documents use:
/// anchors, literals, escapes (`\d`, `\w`, `\.`), classes (`[A-Z0-9_-]`), groups with
/// alternatives (the first is taken) and quantifiers (`?`, `*`, `+`, `{n}`, `{n,m}`; the least
/// count, at least one for `+`). The result is checked with the pattern itself; nil when the
/// pattern is beyond this (a lookahead, a backreference) or the string does not match.
enum PatternExample {
    static func string(matching pattern: String, atLeast minLength: Int = 0) -> String? {
        var parser = Parser(characters: Array(pattern))
        guard var text = parser.sequence(), parser.index == parser.characters.count else { return nil }
        // A `.*` or `x+` tail can grow to a minimum length; others are checked below.
        if text.count < minLength, let filler = parser.growable { text += String(repeating: filler, count: minLength - text.count) }
        guard let regex = try? NSRegularExpression(pattern: pattern),
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        else { return nil }
        return text
    }

    private struct Parser {
        let characters: [Character]
        var index = 0
        /// A character a repeated piece may add more of, to reach a minimum length.
        var growable: Character?

        init(characters: [Character]) { self.characters = characters }

        /// Pieces up to the end, a `)` or a `|` (whose alternatives are skipped).
        mutating func sequence() -> String? {
            var out = ""
            while index < characters.count {
                let character = characters[index]
                if character == ")" { return out }
                if character == "|" {
                    skipAlternatives()
                    return out
                }
                guard let (piece, repeatable) = atom() else { return nil }
                guard let count = quantifier() else { return nil }
                if count > 1 || (index > 0 && ["*", "+", "}"].contains(characters[index - 1])), let first = repeatable { growable = first }
                out += String(repeating: piece, count: count)
            }
            return out
        }

        /// Skips `|…` alternatives up to the closing `)` of the group (or the end).
        mutating func skipAlternatives() {
            var depth = 0
            while index < characters.count {
                let character = characters[index]
                if character == "\\" { index += 2; continue }
                if character == "(" { depth += 1 }
                if character == ")" { if depth == 0 { return }; depth -= 1 }
                index += 1
            }
        }

        /// One piece's text and the single character that may repeat it (nil for a group).
        mutating func atom() -> (String, Character?)? {
            let character = characters[index]
            index += 1
            switch character {
            case "^", "$": return ("", nil)
            case ".": return ("a", "a")
            case "\\":
                guard index < characters.count else { return nil }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "d": return ("0", "0")
                case "w": return ("a", "a")
                case "s": return (" ", " ")
                case "D", "W", "S": return ("-", "-")
                case _ where escaped.isLetter || escaped.isNumber: return nil // \b, \1, \p{…}: not attempted
                default: return (String(escaped), escaped)
                }
            case "[":
                guard let chosen = characterClass() else { return nil }
                return (String(chosen), chosen)
            case "(":
                if index < characters.count, characters[index] == "?" {
                    // Only a non-capturing group is read; lookarounds are not.
                    guard index + 1 < characters.count, characters[index + 1] == ":" else { return nil }
                    index += 2
                }
                guard let inner = sequence(), index < characters.count, characters[index] == ")" else { return nil }
                index += 1
                return (inner, nil)
            case "*", "+", "?", "{", "|", ")": return nil
            default: return (String(character), character)
            }
        }

        /// The first character a `[...]` class allows (a negated class gives `a` or `0`).
        mutating func characterClass() -> Character? {
            var negated = false
            if index < characters.count, characters[index] == "^" { negated = true; index += 1 }
            var members: [Character] = []
            var ranges: [(Character, Character)] = []
            var first = true
            while index < characters.count, characters[index] != "]" || first {
                first = false
                var character = characters[index]
                index += 1
                if character == "\\", index < characters.count {
                    let escaped = characters[index]
                    index += 1
                    switch escaped {
                    case "d": ranges.append(("0", "9")); continue
                    case "w": ranges.append(("a", "z")); continue
                    case "s": members.append(" "); continue
                    default: character = escaped
                    }
                }
                if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                    var upper = characters[index + 1]
                    index += 2
                    if upper == "\\", index < characters.count { upper = characters[index]; index += 1 }
                    ranges.append((character, upper))
                } else {
                    members.append(character)
                }
            }
            guard index < characters.count else { return nil }
            index += 1 // ]
            if negated {
                let excluded = { (candidate: Character) in members.contains(candidate) || ranges.contains { $0.0 <= candidate && candidate <= $0.1 } }
                return ["a", "0", "Z", "_", "x"].first { !excluded($0) }
            }
            return ranges.first.map(\.0) ?? members.first
        }

        /// How many times the piece just read appears: its quantifier's least (1 for `+`); 1 without one.
        mutating func quantifier() -> Int? {
            guard index < characters.count else { return 1 }
            var count: Int
            switch characters[index] {
            case "?", "*": count = 0; index += 1
            case "+": count = 1; index += 1
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                let bounds = String(characters[(index + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                guard let least = Int(bounds.first ?? ""), least <= 1_000 else { return nil }
                count = least
                index = close + 1
            default: return 1
            }
            if index < characters.count, characters[index] == "?" || characters[index] == "+" { index += 1 } // lazy or possessive
            return count
        }
    }
}
