import MockAPICore

/// What changed in one contract between two sets: its request (what old clients send must still
/// be accepted) and its responses (what old clients decode must still be there).
struct ContractComparison {
    let before: Contract
    let after: Contract
    let pairing: ResponsePairing
    /// `CONTRACT RESPONSE` of the responses that stand for a document's `default`, old and new.
    var keptDefaults: (old: Set<String>, new: Set<String>) = ([], [])
    private var found: [ContractChange] = []

    init(before: Contract, after: Contract, pairing: ResponsePairing = .byName) {
        self.before = before
        self.after = after
        self.pairing = pairing
    }

    func changes() -> [ContractChange] {
        var comparison = self
        comparison.compareRoute()
        var request = RequestComparison(contract: before.name)
        request.compare(before.request, after.request)
        comparison.found += request.changes
        var responses = ResponseComparison(contract: before.name, pairing: pairing)
        responses.keptDefaults = (
            Set(keptDefaults.old.compactMap { Self.response(of: $0, in: before.name) }),
            Set(keptDefaults.new.compactMap { Self.response(of: $0, in: after.name) })
        )
        responses.compare(before.responses, after.responses)
        comparison.found += responses.changes
        comparison.compareSequence(renamed: responses.newNames)
        return comparison.found
    }

    /// Responses served in turn: a repeated request gets them one after another. Any change to
    /// the turn (added, removed, reordered) changes what the second request gets. Old names are
    /// read through `renamed`, so a renamed response in the same place is no change.
    private mutating func compareSequence(renamed: [String: String]) {
        let old = before.sequence?.map { renamed[before.responses[$0].name] ?? before.responses[$0].name }
        let new = after.sequence?.map { after.responses[$0].name }
        guard old != new else { return }
        let shown = { (names: [String]) in names.joined(separator: ", ") }
        switch (old, new) {
        case (nil, let now?):
            note("sequence", .breaking, "responses are now served in turn (\(shown(now))): a repeated request no longer gets the default answer each time")
        case (let was?, nil):
            note("sequence", .breaking, "responses are no longer served in turn (was \(shown(was))): every request gets the default answer")
        case (let was?, let now?):
            note("sequence", .breaking, "sequence was \(shown(was)), now \(shown(now))")
        case (nil, nil):
            break
        }
    }

    /// `add_pet server_error` → `server_error` for `add_pet`, nil for another contract.
    private static func response(of entry: String, in contract: String) -> String? {
        entry.hasPrefix(contract + " ") ? String(entry.dropFirst(contract.count + 1)) : nil
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
