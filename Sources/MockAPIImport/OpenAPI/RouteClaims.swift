import MockAPICore

/// Method and path templates already taken, so two operations that would answer the same
/// requests (`/files/{id}` and `/files/{name}`, or `/files` beside `/files?beta=true`) do not
/// make a set that refuses to load: the later one is skipped. Contracts may share a route only
/// when each has a `match` of its own.
struct RouteClaims {
    private var taken: [String: (name: String, matches: [RequestMatch?])] = [:]

    mutating func claim(_ draft: ContractDraft) throws(Unexpressible) {
        // Parameters of any name take the same segments; an `int` one and a text one are told apart.
        let shape = draft.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") ? (segment.hasSuffix(":int}") ? "{:int}" : "{}") : String(segment)
        }
        let key = "\(draft.method.rawValue) \(shape.joined(separator: "/"))"
        guard let existing = taken[key] else {
            taken[key] = (draft.name, [draft.match])
            return
        }
        guard draft.match != nil, !existing.matches.contains(where: { $0 == nil || $0 == draft.match }) else {
            throw Unexpressible("same route", "\(draft.method.rawValue) \(draft.path) answers the same requests as contract \"\(existing.name)\" (contracts share a path only when each has a match)")
        }
        taken[key]?.matches.append(draft.match)
    }
}
