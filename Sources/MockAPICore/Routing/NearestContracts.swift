/// Explains a 404: which contracts come closest to the request and why each did not match.
/// Runs only for unmatched requests, so a plain scan is fine.
package enum NearestContracts {
    package struct Candidate: Sendable, Equatable {
        package var contract: Int
        package var reason: String
    }

    package static func find(method: RequestMethod, path: String, in contracts: [Contract], limit: Int = 3) -> [Candidate] {
        let segments = path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // Path likeness ranks first (matching leading segments, then a near-miss spelling of the
        // first different literal, then length); the same method only breaks ties.
        let scored = contracts.enumerated().map { index, contract -> (score: [Int], candidate: Candidate) in
            let comparison = compare(segments, with: contract.request.path)
            let (matched, reason) = (comparison.matchedSegments, comparison.sentence(template: contract.request.path))
            let template = contract.request.path.segments
            var spelling = 0
            if matched < segments.count, matched < template.count, case .literal(let expected) = template[matched],
                editDistance(String(segments[matched]), expected, limit: 3) <= 2
            {
                spelling = 1
            }
            let sameMethod = contract.request.method == method ? 1 : 0
            let methodNote = sameMethod == 1 ? "" : " (and it is a \(contract.request.method.rawValue) route)"
            // `/v1/categories/` is /v1/categories with a slash too many, not a stab at /v1/categories/{id}.
            let trailingSlash = comparison.isTrailingSlash ? 1 : 0
            let score = [matched, trailingSlash, spelling, -abs(segments.count - template.count), sameMethod]
            return (score, Candidate(contract: index, reason: reason + methodNote))
        }
        return scored.filter { $0.score[0] > 0 }
            .sorted { $0.score != $1.score ? $0.score.lexicographicallyPrecedes($1.score) == false : $0.candidate.contract < $1.candidate.contract }
            .prefix(limit).map(\.candidate)
    }

    /// How far a path follows a template: the leading segments that match, and the first
    /// difference (nil when the whole path matches).
    struct Comparison {
        var matchedSegments: Int
        var difference: String?
        /// The only difference is one slash too many at the end.
        var isTrailingSlash = false

        func sentence(template: PathTemplate) -> String {
            difference ?? "the path matches \(template)"
        }
    }

    /// Levenshtein distance, giving up (returning `limit`) once it must exceed it.
    package static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) < limit else { return limit }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return min(previous[b.count], limit)
    }

    /// Why `template` does not match `path`, in one sentence; nil when it does.
    package static func explain(path: String, template: PathTemplate) -> String? {
        let segments = path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return compare(segments, with: template).difference
    }

    /// How many leading segments match, and a sentence on the first difference.
    private static func compare(_ segments: [Substring], with template: PathTemplate) -> Comparison {
        if let pathParameter = template.segments.firstIndex(where: { if case .parameter(_, .path) = $0 { true } else { false } }) {
            // A {name:path} takes what the segments around it leave: compare the literal ends.
            let head = Array(segments.prefix(pathParameter))
            let fixedHead = compareFixed(head, with: Array(template.segments.prefix(pathParameter)), template: template)
            if fixedHead.matchedSegments < pathParameter || fixedHead.difference != nil { return fixedHead }
            let tailCount = template.segments.count - pathParameter - 1
            guard segments.count >= pathParameter + 1 + tailCount else {
                return Comparison(
                    matchedSegments: pathParameter, difference: "the path stops after \(segments.count) segment\(segments.count == 1 ? "" : "s"); \(template) needs at least \(template.segments.count)"
                )
            }
            let tail = compareFixed(
                Array(segments.suffix(tailCount)), with: Array(template.segments.suffix(tailCount)), template: template,
                firstNumber: segments.count - tailCount + 1)
            return tail.difference == nil
                ? Comparison(matchedSegments: template.segments.count)
                : Comparison(matchedSegments: pathParameter, difference: tail.difference, isTrailingSlash: tail.isTrailingSlash)
        }
        return compareFixed(segments, with: template.segments, template: template)
    }

    /// `firstNumber`: how a person counts the first of `segments` in the whole path.
    private static func compareFixed(
        _ segments: [Substring], with expectedSegments: [PathTemplate.Segment], template: PathTemplate,
        firstNumber: Int = 1
    ) -> Comparison {
        for (offset, expected) in expectedSegments.enumerated() {
            guard offset < segments.count else {
                return Comparison(matchedSegments: offset, difference: "the path stops after \(segments.count) segment\(segments.count == 1 ? "" : "s"); \(template) has \(expectedSegments.count)")
            }
            let actual = segments[offset]
            switch expected {
            case .literal(let text) where text != actual:
                return Comparison(matchedSegments: offset, difference: "segment \(offset + firstNumber) is \"\(actual)\", \(template) expects \"\(text)\"")
            case .parameter(let name, let type) where !type.accepts(actual):
                let what = actual.isEmpty ? "empty" : "\"\(actual)\""
                return Comparison(
                    matchedSegments: offset, difference: "segment \(offset + firstNumber) is \(what), not \(type == .int ? "an int" : "a value") for \(PathTemplate.spelled(name, type)) in \(template)"
                )
            default:
                continue
            }
        }
        if segments.count == expectedSegments.count + 1, segments.last?.isEmpty == true, !expectedSegments.isEmpty {
            return Comparison(
                matchedSegments: expectedSegments.count, difference: "trailing slash: the contract's path is \(template)",
                isTrailingSlash: true)
        }
        if segments.count > expectedSegments.count {
            return Comparison(
                matchedSegments: expectedSegments.count,
                difference: "the path has \(segments.count - expectedSegments.count) extra segment\(segments.count - expectedSegments.count == 1 ? "" : "s") after \(template)")
        }
        return Comparison(matchedSegments: expectedSegments.count)
    }
}
