import MockAPICore

/// The response side of a contract: a change breaks old clients when a response they handle is
/// gone or answers differently (status, media type), or when its fixture lost or retyped a key
/// their models decode. New responses and new keys are compatible.
struct ResponseComparison {
    let contract: String
    private(set) var changes: [ContractChange] = []
    /// Fixture differences reported per response at most; the rest are counted.
    static let fixtureChangesShown = 25

    init(contract: String) {
        self.contract = contract
    }

    mutating func compare(_ old: [ResponseDefinition], _ new: [ResponseDefinition]) {
        for before in old {
            let location = "responses.\(before.name)"
            guard let after = new.first(where: { $0.name == before.name }) else {
                note(location, .breaking, "response \(before.name) (\(before.status)) removed")
                continue
            }
            if before.status != after.status { note(location + ".status", .breaking, "status changed from \(before.status) to \(after.status)") }
            if (before.contentType ?? "application/json") != (after.contentType ?? "application/json") {
                note(location + ".contentType", .breaking, "content type changed from \(before.contentType ?? "application/json") to \(after.contentType ?? "application/json")")
            }
            compareBodies(before, after, at: location + ".body")
        }
        for after in new where !old.contains(where: { $0.name == after.name }) {
            note("responses.\(after.name)", .compatible, "new response \(after.name) (\(after.status))")
        }
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
