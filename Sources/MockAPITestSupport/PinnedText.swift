// Swift Testing, for `Issue.record`: this target is linked only into test targets (ours and a team's).
package import Testing

/// Checks text pinned in a test (a help screen, a documented transcript, a message); a mismatch
/// is reported as a line diff (`-` pinned, `+` actual, two lines of context), not as two whole
/// strings to compare by eye.
package func expectPinned(_ actual: String, _ pinned: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != pinned else { return }
    Issue.record(Comment(rawValue: "pinned text differs (- pinned, + actual):\n" + LineDiff.render(from: pinned, to: actual)), sourceLocation: sourceLocation)
}

/// A line diff by longest common subsequence (help screens and reports are short).
package enum LineDiff {
    package enum Line: Equatable {
        case same(String), removed(String), added(String)
    }

    package static func lines(from old: [Substring], to new: [Substring]) -> [Line] {
        // common[i][j]: the longest common subsequence of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var result: [Line] = [], i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                result.append(.same(String(old[i]))); i += 1; j += 1
            } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
                result.append(.removed(String(old[i]))); i += 1 // a changed line reads as - then +
            } else {
                result.append(.added(String(new[j]))); j += 1
            }
        }
        return result
    }

    /// The changed lines with `context` unchanged lines around each run; `…` where lines are left out.
    package static func render(from old: String, to new: String, context: Int = 2) -> String {
        let diff = lines(
            from: old.split(separator: "\n", omittingEmptySubsequences: false),
            to: new.split(separator: "\n", omittingEmptySubsequences: false))
        let changed = diff.indices.filter { diff[$0] != .same(diff[$0].text) }
        var shown = Set<Int>()
        for index in changed { shown.formUnion(max(0, index - context)...min(diff.count - 1, index + context)) }
        var out: [String] = [], previous = -1
        for index in shown.sorted() {
            if index > previous + 1 { out.append("…") }
            switch diff[index] {
            case .same(let text): out.append("  " + text)
            case .removed(let text): out.append("- " + text)
            case .added(let text): out.append("+ " + text)
            }
            previous = index
        }
        return out.joined(separator: "\n")
    }
}

extension LineDiff.Line {
    package var text: String {
        switch self {
        case .same(let text), .removed(let text), .added(let text): text
        }
    }
}
