import MockAPICore

/// What changed in one contract between two sets: its request (what old clients send must still
/// be accepted) and its responses (what old clients decode must still be there).
struct ContractComparison {
    let before: Contract
    let after: Contract
    private var found: [ContractChange] = []

    init(before: Contract, after: Contract) {
        self.before = before
        self.after = after
    }

    func changes() -> [ContractChange] {
        var comparison = self
        comparison.compareRoute()
        var request = RequestComparison(contract: before.name)
        request.compare(before.request, after.request)
        comparison.found += request.changes
        var responses = ResponseComparison(contract: before.name)
        responses.compare(before.responses, after.responses)
        comparison.found += responses.changes
        return comparison.found
    }

    private mutating func compareRoute() {
        let old = before.request, new = after.request
        if old.method != new.method {
            note("request.method", .breaking, "method changed from \(old.method.rawValue) to \(new.method.rawValue)")
        }
        guard old.path.text != new.path.text else { return }
        switch PathComparison.compare(old.path, new.path) {
        case .same:
            note("request.path", .compatible, "path parameters renamed: \(old.path) → \(new.path)")
        case .widened:
            note("request.path", .compatible, "path widened: \(old.path) → \(new.path)")
        case .changed:
            note("request.path", .breaking, "path changed from \(old.path) to \(new.path)")
        }
    }

    private mutating func note(_ location: String, _ impact: ContractChange.Impact, _ message: String) {
        found.append(ContractChange(contract: before.name, location: location, impact: impact, message: message))
    }
}

enum PathComparison {
    case same, widened, changed

    /// `same` when only parameter names differ, `widened` when every request the old template
    /// matched the new one matches too (`{id:int}` → `{id}`), `changed` otherwise.
    static func compare(_ old: PathTemplate, _ new: PathTemplate) -> PathComparison {
        guard old.segments.count == new.segments.count else { return .changed }
        var widened = false
        for (a, b) in zip(old.segments, new.segments) {
            switch (a, b) {
            case (.literal(let x), .literal(let y)) where x == y:
                continue
            case (.parameter(_, let x), .parameter(_, let y)) where x == y:
                continue
            case (.parameter(_, .int), .parameter(_, .string)), (.parameter(_, .int), .parameter(_, .path)),
                (.parameter(_, .string), .parameter(_, .path)), (.literal, .parameter(_, .string)), (.literal, .parameter(_, .path)):
                widened = true
            default:
                return .changed
            }
        }
        return widened ? .widened : .same
    }
}
