extension DecodingFailure {
    /// The body key a missing key is most likely meant to be, when one is close enough: a
    /// hand-written `init(from:)` or `CodingKeys` that spells a key its own way (`backers` or
    /// `backer_count` for the body's `backers_count`) fails with "missing key", and the key it
    /// wanted is right there under another name. Case, `_` and `-` are ignored; then one name
    /// containing the other (4 characters or more) or an edit distance of 1 (2 from 8
    /// characters on) counts as close. None when no key is, or when two are equally close.
    package static func nearKey(to wanted: String, among keys: some Collection<String>) -> String? {
        let target = normalized(wanted)
        guard !target.isEmpty else { return nil }
        var best: (key: String, distance: Int)?
        var tied = false
        for key in keys where key != wanted {
            let candidate = normalized(key)
            let distance = editDistance(target, candidate)
            let shorter = min(target.count, candidate.count)
            let contained = shorter >= 4 && (target.contains(candidate) || candidate.contains(target))
            guard contained || distance <= (max(target.count, candidate.count) >= 8 ? 2 : 1) else { continue }
            if let current = best, current.distance <= distance {
                if current.distance == distance { tied = true }
                continue
            }
            best = (key, distance)
            tied = false
        }
        return tied ? nil : best?.key
    }

    private static func normalized(_ key: String) -> [Character] {
        Array(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
