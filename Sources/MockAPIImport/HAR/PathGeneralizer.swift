/// Turns a recorded path into a template: numeric segments become `{…:int}`, UUIDs and long
/// hex ids `{…}`; everything else stays literal.
///
/// One parameter is `{id}`; several are named after the segment before each, singular
/// (`/v1/projects/42/backers/7` → `/v1/projects/{project_id:int}/backers/{backer_id:int}`).
enum PathGeneralizer {
    struct Template: Hashable {
        /// The template text: `/v1/projects/{id:int}`.
        var path: String
        /// Literal segments and parameter names, for contract names: `v1 projects id`.
        var words: [String]
        var literals: [String]
        /// Whether any segment became a parameter.
        var hasParameters: Bool { words.count != literals.count }
    }

    static func template(forPath path: String) -> Template {
        // Empty segments are kept: `/v1/users//self` is what the client sends, and what the mock must take.
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let segments = trimmed.isEmpty ? [] : trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let kinds = segments.map(kind)
        let parameterCount = kinds.filter { $0 != .literal }.count
        var names: Set<String> = []
        var pieces: [String] = []
        var words: [String] = []
        for (index, segment) in segments.enumerated() {
            switch kinds[index] {
            case .literal:
                pieces.append(segment)
                words.append(segment)
            case .int, .string:
                var name = "id"
                if parameterCount > 1 {
                    let previous = index > 0 && kinds[index - 1] == .literal ? singular(Naming.snakeCase(segments[index - 1])) : "id"
                    name = previous == "id" ? "id" : "\(previous)_id"
                }
                name = Naming.unique(name, in: &names)
                pieces.append(kinds[index] == .int ? "{\(name):int}" : "{\(name)}")
                words.append(name)
            }
        }
        return Template(path: "/" + pieces.joined(separator: "/"), words: words, literals: segments.enumerated().filter { kinds[$0.offset] == .literal }.map(\.element))
    }

    private enum Kind { case literal, int, string }

    private static func kind(_ segment: String) -> Kind {
        let digits = segment.first == "-" ? segment.dropFirst() : Substring(segment)
        if !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return .int }
        if isUUID(segment) || isLongHex(segment) { return .string }
        // Braces cannot appear in a literal template segment.
        if segment.contains("{") || segment.contains("}") { return .string }
        return .literal
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// Object ids such as MongoDB's (24 hex digits) or hashes; short words like `cafe` stay literal.
    private static func isLongHex(_ text: String) -> Bool {
        text.count >= 16 && text.allSatisfy(\.isHexDigit) && text.contains(where: \.isNumber)
    }

    private static func singular(_ word: String) -> String {
        if word.hasSuffix("ies"), word.count > 3 { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), word.count > 1 { return String(word.dropLast()) }
        return word
    }
}
