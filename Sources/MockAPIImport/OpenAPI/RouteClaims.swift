import MockAPICore

/// Method and path templates already taken, so two operations that would answer the same
/// requests (`/files/{id}` and `/files/{name}`, `/files` beside `/files?beta=true`, or
/// `/files#get` beside `/files#list`) do not make a set that refuses to load. Contracts may share
/// a route only when each has a `match` of its own; otherwise the later operation is merged into
/// the contract already there (`ContractDraft.loosen(toTake:)`), so its requests are answered
/// rather than refused by a contract made for another operation.
struct RouteClaims {
    private var taken: [String: [(name: String, match: RequestMatch?)]] = [:]

    /// Nil when the route is the draft's own now; else the contract the draft must be merged into,
    /// and whether that contract must give up its `match` (the draft has none).
    mutating func claim(_ draft: ContractDraft) throws(Unexpressible) -> (name: String, dropsMatch: Bool)? {
        // Parameters of any name take the same segments; an `int` one and a text one are told apart.
        let shape = draft.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") ? (segment.hasSuffix(":int}") ? "{:int}" : "{}") : String(segment)
        }
        let key = "\(draft.method.rawValue) \(shape.joined(separator: "/"))"
        guard let existing = taken[key] else {
            taken[key] = [(draft.name, draft.match)]
            return nil
        }
        if draft.match != nil, !existing.contains(where: { $0.match == nil || $0.match == draft.match }) {
            taken[key]?.append((draft.name, draft.match))
            return nil
        }
        if let same = existing.first(where: { $0.match == nil || $0.match == draft.match }) { return (same.name, false) }
        // The draft has no match and every contract here has one: the only one can drop it; of several, none can.
        guard existing.count == 1 else {
            let names = existing.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw Unexpressible("same route", "\(draft.method.rawValue) \(draft.path) answers the same requests as contracts \(names), each told apart by a match")
        }
        taken[key] = [(existing[0].name, nil)]
        return (existing[0].name, true)
    }
}
