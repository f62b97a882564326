import MockAPICore

/// The response side of a contract: a change breaks old clients when a response they handle is
/// gone or answers differently (status, media type, a fault, a `when` that no longer selects it),
/// or when its fixture lost or retyped a key their models decode. New responses, new keys and a
/// new `delay` are compatible.
struct ResponseComparison {
    let contract: String
    /// How responses are paired: by name in a contract set; by declared status for two imported
    /// OpenAPI documents, whose response names (`default`, `bad_request`) are the importer's.
    let pairing: ResponsePairing
    /// Responses that stand for a document's `default` (any other status), by name, old and new.
    var keptDefaults: (old: Set<String>, new: Set<String>) = ([], [])
    private(set) var changes: [ContractChange] = []
    /// Old response name → the new response it became (renamed ones included), for the sequence.
    private(set) var newNames: [String: String] = [:]
    /// Fixture differences reported per response at most; the rest are counted.
    static let fixtureChangesShown = 25

    init(contract: String, pairing: ResponsePairing = .byName) {
        self.contract = contract
        self.pairing = pairing
    }

    mutating func compare(_ old: [ResponseDefinition], _ new: [ResponseDefinition]) {
        let pairs = pairing == .byName ? pairByName(old, new) : pairByStatus(old, new)
        for (before, after) in pairs.paired {
            newNames[before.name] = after.name
            let location = "responses.\(before.name)"
            if before.status != after.status { note(location + ".status", .breaking, "status changed from \(before.status) to \(after.status)") }
            if (before.contentType ?? "application/json") != (after.contentType ?? "application/json") {
                note(location + ".contentType", .breaking, "content type changed from \(before.contentType ?? "application/json") to \(after.contentType ?? "application/json")")
            }
            // A body the importer made up (its 401 for a secured operation) is no part of the document.
            if pairing == .byName || !(Self.madeUp(before) || Self.madeUp(after)) { compareBodies(before, after, at: location + ".body") }
            var behaviour = ResponseBehaviourComparison(contract: contract, location: location)
            behaviour.compare(before, after)
            changes += behaviour.changes
        }
        for before in pairs.removed {
            if pairing == .byStatus, keptDefaults.old.contains(before.name) {
                note(
                    "responses.\(before.name)", .breaking,
                    "the answer for any other status (the document's default, served as \(before.status)) is no longer declared (response \(before.name) removed)")
            } else if pairing == .byStatus {
                note("responses.\(before.name)", .breaking, "status \(before.status) is no longer declared (response \(before.name) removed)")
            } else {
                note("responses.\(before.name)", .breaking, "response \(before.name) (\(before.status)) removed")
            }
        }
        for after in pairs.added {
            var message =
                switch pairing {
                case .byName: "new response \(after.name) (\(after.status))"
                case .byStatus where keptDefaults.new.contains(after.name):
                    "an answer for any other status (the document's default) is now declared, served as \(after.status) (new response \(after.name))"
                case .byStatus: "status \(after.status) is now declared (new response \(after.name))"
                }
            if let when = after.when { message += ", served when \(when.description) (such requests got the default answer before)" }
            if after.name == "default", pairing == .byStatus, let was = old.first(where: { $0.name == "default" }), new.contains(where: { $0.status == was.status }) {
                message += "; the answer served without Prefer was \(was.status) (still declared), now \(after.status)"
            }
            note("responses.\(after.name)", .compatible, message)
        }
    }

    /// Same name first; then a response whose name is gone but whose status and body a new one
    /// has is taken as renamed (one finding: an app sees the same answer, a `Prefer: example=`
    /// that names it must follow).
    private mutating func pairByName(_ old: [ResponseDefinition], _ new: [ResponseDefinition]) -> ResponsePairs {
        var pairs = ResponsePairs()
        var unpairedNew = new.filter { after in !old.contains { $0.name == after.name } }
        for before in old {
            if let after = new.first(where: { $0.name == before.name }) {
                pairs.paired.append((before, after))
            } else if let index = unpairedNew.firstIndex(where: { Self.sameAnswer(before, $0) }) {
                let after = unpairedNew.remove(at: index)
                note(
                    "responses.\(before.name)", .compatible,
                    "response \(before.name) (\(before.status)) renamed to \(after.name), same status and body (a Prefer: example=\(before.name) must follow)")
                pairs.paired.append((before, after))
            } else {
                pairs.removed.append(before)
            }
        }
        pairs.added = unpairedNew
        return pairs
    }

    /// Two imported documents: a status declared on both sides is the same answer, whatever the
    /// importer named it. A `default` whose success status changed (200 → 204) is one change, not
    /// a status removed and another declared.
    private func pairByStatus(_ old: [ResponseDefinition], _ new: [ResponseDefinition]) -> ResponsePairs {
        var pairs = ResponsePairs()
        var unpairedNew = new
        var unpairedOld: [ResponseDefinition] = []
        for before in old {
            let index =
                unpairedNew.firstIndex { $0.status == before.status && $0.name == before.name }
                ?? unpairedNew.firstIndex { $0.status == before.status }
            if let index {
                pairs.paired.append((before, unpairedNew.remove(at: index)))
            } else {
                unpairedOld.append(before)
            }
        }
        if let oldDefault = unpairedOld.firstIndex(where: { $0.name == "default" && (200..<300).contains($0.status) }),
            let newDefault = unpairedNew.firstIndex(where: { $0.name == "default" && (200..<300).contains($0.status) })
        {
            pairs.paired.append((unpairedOld.remove(at: oldDefault), unpairedNew.remove(at: newDefault)))
        }
        pairs.removed = unpairedOld
        pairs.added = unpairedNew
        return pairs
    }

    /// The importer writes every body a document gives as a fixture; an inline body is one it made up.
    static func madeUp(_ response: ResponseDefinition) -> Bool { response.fixture == nil && !response.body.isEmpty }

    private static func sameAnswer(_ a: ResponseDefinition, _ b: ResponseDefinition) -> Bool {
        a.status == b.status && a.body == b.body && a.contentType == b.contentType
    }

    private mutating func compareBodies(_ before: ResponseDefinition, _ after: ResponseDefinition, at location: String) {
        guard !before.body.isEmpty, let old = try? JSONParser.parse(before.body) else { return }
        guard let new = try? JSONParser.parse(after.body) else {
            if !after.body.isEmpty || !before.body.isEmpty { note(location, .breaking, "the body is no longer JSON\(after.fixture.map { " (\($0))" } ?? "")") }
            return
        }
        var shapes = JSONShapeComparison()
        shapes.compare(old, new, at: "$")
        let file = after.fixture.map { " (\($0))" } ?? ""
        for difference in shapes.differences.prefix(Self.fixtureChangesShown) {
            note("\(location).\(difference.path)", difference.breaking ? .breaking : .compatible, difference.message + file)
        }
        let hidden = shapes.differences.dropFirst(Self.fixtureChangesShown)
        if !hidden.isEmpty {
            note(location, hidden.contains(where: \.breaking) ? .breaking : .compatible, "and \(hidden.count) more fixture differences\(file)")
        }
    }

    private mutating func note(_ location: String, _ impact: ContractChange.Impact, _ message: String) {
        changes.append(ContractChange(contract: contract, location: location, impact: impact, message: message))
    }
}

/// How two contracts' responses are paired.
package enum ResponsePairing: Sendable {
    /// By name, a renamed one by its status and body: contract sets as written.
    case byName
    /// By declared status: two sets imported from OpenAPI documents.
    case byStatus
}

struct ResponsePairs {
    var paired: [(ResponseDefinition, ResponseDefinition)] = []
    var removed: [ResponseDefinition] = []
    var added: [ResponseDefinition] = []
}
