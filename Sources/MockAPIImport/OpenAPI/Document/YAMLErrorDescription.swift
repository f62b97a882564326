import Yams

/// `api.yaml:12:5: mapping values are not allowed here`: where a document's YAML (or JSON) is
/// wrong and what is wrong, instead of Foundation's "The operation could not be completed".
enum YAMLErrorDescription {
    static func describe(_ error: any Error, file: String, text: String) -> String {
        guard let yaml = error as? YamlError else { return "\(file): not JSON or YAML: \(error)" }
        switch yaml {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return "\(file):\(mark.line):\(mark.column): \(problem)\(context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? "")"
        case .reader(let problem, let offset, _, _):
            guard let offset else { return "\(file): \(problem)" }
            let (line, column) = position(ofCharacter: offset, in: text)
            return "\(file):\(line):\(column): \(problem)"
        case .memory:
            return "\(file): the YAML parser ran out of memory"
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "\(file):\(context.mark.line):\(context.mark.column): duplicate keys \(duplicates.sorted().joined(separator: ", "))"
        default:
            return "\(file): \(yaml)"
        }
    }

    static func describe(_ problem: YAMLShapeCheck.Problem, file: String) -> String {
        switch problem {
        case .aliases(let anchor, let mark):
            return "\(location(file, mark)): aliases of &\(anchor) expand the document past \(YAMLShapeCheck.maxAliasedNodes) aliased nodes "
                + "(a \"billion laughs\" document?); refused (aliases may add at most \(YAMLShapeCheck.maxAliasedNodes) nodes)"
        case .depth(let mark):
            return "\(location(file, mark)): nested more than \(YAMLShapeCheck.maxDepth) levels deep; refused"
        }
    }

    private static func location(_ file: String, _ mark: Mark?) -> String {
        mark.map { "\(file):\($0.line):\($0.column)" } ?? file
    }

    /// 1-based line and column of the character at `offset` (Yams counts characters).
    private static func position(ofCharacter offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}
