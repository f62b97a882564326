/// Explains a 404: which contracts come closest to the request and why each did not match.
/// Runs only for unmatched requests, so a plain scan is fine.
public enum NearestContracts {
    public struct Candidate: Sendable, Equatable {
        public var contract: Int
        public var reason: String
    }

    public static func find(method: HTTPMethod, path: String, in contracts: [Contract], limit: Int = 3) -> [Candidate] {
        let segments = path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let scored = contracts.enumerated().map { index, contract -> (score: Int, candidate: Candidate) in
            let (matched, reason) = compare(segments, with: contract.request.path)
            var score = matched * 4 - abs(segments.count - contract.request.path.segments.count)
            if contract.request.method == method { score += 1 }
            let methodNote = contract.request.method == method ? "" : " (and it is a \(contract.request.method.rawValue) route)"
            return (score, Candidate(contract: index, reason: reason + methodNote))
        }
        return scored.filter { $0.score > 0 }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.candidate.contract < $1.candidate.contract }
            .prefix(limit).map(\.candidate)
    }

    /// Why `template` does not match `path`, in one sentence.
    public static func explain(path: String, template: PathTemplate) -> String {
        let segments = path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return compare(segments, with: template).1
    }

    /// How many leading segments match, and a sentence on the first difference.
    private static func compare(_ segments: [Substring], with template: PathTemplate) -> (Int, String) {
        for (offset, expected) in template.segments.enumerated() {
            guard offset < segments.count else {
                return (offset, "the path stops after \(segments.count) segment\(segments.count == 1 ? "" : "s"); \(template) has \(template.segments.count)")
            }
            let actual = segments[offset]
            switch expected {
            case .literal(let text) where text != actual:
                return (offset, "segment \(offset + 1) is \"\(actual)\", \(template) expects \"\(text)\"")
            case .parameter(let name, let type) where !type.accepts(actual):
                let what = actual.isEmpty ? "empty" : "\"\(actual)\""
                return (offset, "segment \(offset + 1) is \(what), not \(type == .int ? "an int" : "a value") for {\(name)\(type == .int ? ":int" : "")} in \(template)")
            default:
                continue
            }
        }
        if segments.count > template.segments.count {
            return (template.segments.count, "the path has \(segments.count - template.segments.count) extra segment\(segments.count - template.segments.count == 1 ? "" : "s") after \(template)")
        }
        return (template.segments.count, "the path matches \(template)")
    }
}
