/// Refused requests grouped for a person: 5,000 requests that failed the same way are one
/// finding, said once with a count and a few examples (`--format json` keeps every request).
extension CoverageReport {
    /// Requests refused alike: the same contract and reason, or, matching none, the same method,
    /// status and path shape (`/v1/items/{id}` for `/v1/items/1` … `/v1/items/5000`).
    package struct RefusalGroup: Sendable, Equatable {
        /// In journal order; the first one is the group's example.
        package var refusals: [Refusal]
        /// `GET /v1/items/{id}`: the first request's method and path, identifiers folded.
        package var shape: String
    }

    /// `refusals` grouped, groups in the order their first request was journaled.
    package static func groups(of refusals: [Refusal]) -> [RefusalGroup] {
        var groups: [RefusalGroup] = []
        var position: [String: Int] = [:]
        for refusal in refusals {
            let shape = "\(refusal.method) \(pathShape(refusal.target))"
            // A contract's own problem says what broke; an unmatched request's problem names its
            // path, so its shape stands in for the reason.
            let key = refusal.contract.map { "contract \($0) \(refusal.status) \(refusal.problem)" } ?? "unmatched \(refusal.status) \(shape)"
            if let index = position[key] {
                groups[index].refusals.append(refusal)
            } else {
                position[key] = groups.count
                groups.append(RefusalGroup(refusals: [refusal], shape: shape))
            }
        }
        return groups
    }

    /// The path without its query, each segment that looks like an identifier (digits, a UUID, a
    /// long hex string) written `{id}`.
    static func pathShape(_ target: String) -> String {
        let path = target.prefix { $0 != "?" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            looksLikeIdentifier(segment) ? "{id}" : String(segment)
        }.joined(separator: "/")
    }

    private static func looksLikeIdentifier(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isNumber) { return true }
        let hex = segment.filter { $0 != "-" }
        return segment.count >= 16 && hex.allSatisfy(\.isHexDigit) && hex.contains(where: \.isNumber)
    }
}
