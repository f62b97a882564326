import MockAPICore

/// Pairs the contracts of two sets and collects what changed in each pair.
///
/// Contracts are paired by name; one whose name is gone but whose method and path another
/// contract now serves is taken as renamed (an app never sees a contract's name, a gate that
/// claims it does: the rename is reported, as compatible).
struct SetComparison {
    let old: ContractSet
    let new: ContractSet
    var pairing: ResponsePairing = .byName
    var keptDefaults: (old: Set<String>, new: Set<String>) = ([], [])

    func changes() -> [ContractChange] {
        var changes: [ContractChange] = []
        var newByName: [String: Contract] = [:]
        for contract in new.contracts { newByName[contract.name] = contract }
        let oldNames = Set(old.contracts.map(\.name))
        var paired: Set<String> = []
        for before in old.contracts {
            if let after = newByName[before.name] {
                paired.insert(after.name)
                var comparison = ContractComparison(before: before, after: after, pairing: pairing)
                comparison.keptDefaults = keptDefaults
                changes += comparison.changes()
            } else if let after = new.contracts.first(where: { !oldNames.contains($0.name) && !paired.contains($0.name) && Self.sameRoute($0, before) }) {
                paired.insert(after.name)
                changes.append(
                    ContractChange(
                        contract: before.name, location: "", impact: .compatible,
                        message: "renamed to \(after.name) (gates that claim \(before.name) must follow)"))
                var comparison = ContractComparison(before: before, after: after, pairing: pairing)
                comparison.keptDefaults = keptDefaults
                changes += comparison.changes()
            } else {
                changes.append(
                    ContractChange(
                        contract: before.name, location: "", impact: .breaking,
                        message: "removed: \(before.request.method.rawValue) \(before.request.path) is no longer served"))
            }
        }
        for after in new.contracts where !paired.contains(after.name) && !oldNames.contains(after.name) {
            changes.append(
                ContractChange(
                    contract: after.name, location: "", impact: .compatible,
                    message: "new contract: \(after.request.method.rawValue) \(after.request.path)"))
        }
        return changes
    }

    static func sameRoute(_ a: Contract, _ b: Contract) -> Bool {
        a.request.method == b.request.method && PathShape(a.request.path) == PathShape(b.request.path)
    }
}

/// A path template with its parameter names erased: `/v1/projects/{id:int}` and
/// `/v1/projects/{projectId:int}` route the same requests.
struct PathShape: Equatable {
    let segments: [String]

    init(_ template: PathTemplate) {
        segments = template.segments.map { segment in
            switch segment {
            case .literal(let text): "=" + text
            case .parameter(_, let type): "{" + type.rawValue + "}"
            }
        }
    }
}
