package import MockAPICore

/// One difference between two contract sets, judged for the clients that use them.
package struct ContractChange: Sendable, Equatable, CustomStringConvertible {
    package enum Impact: String, Sendable, Equatable {
        /// A client built against the old set can fail against the new one.
        case breaking
        /// Old clients keep working (new optional keys, new contracts, widened types and enums).
        case compatible
    }

    /// The contract the change is in (its old name when it was renamed or removed).
    package var contract: String
    /// Where, as `--allow` names it: `request.query.page`, `responses.default.body.$.project.slug`.
    package var location: String
    package var impact: Impact
    package var message: String
    /// Accepted with `--allow` (still breaking, but not a failure).
    package var allowed = false

    package init(contract: String, location: String, impact: Impact, message: String) {
        self.contract = contract
        self.location = location
        self.impact = impact
        self.message = message
    }

    /// `contract:location`, the id `--allow` takes (or the contract name alone for all of it).
    package var id: String { location.isEmpty ? contract : "\(contract):\(location)" }

    package var description: String {
        "\(impact == .breaking ? (allowed ? "allowed" : "BREAKING") : "compatible") \(id): \(message)"
    }

    /// Whether `rule` (`contract`, `contract:location` or a prefix of the location ending at a
    /// dot) accepts this change.
    func isAllowed(by rule: String) -> Bool {
        guard let colon = rule.firstIndex(of: ":") else { return rule == contract }
        guard rule[..<colon] == contract else { return false }
        let prefix = rule[rule.index(after: colon)...]
        return location == prefix || location.hasPrefix(prefix + ".") || location.hasPrefix(prefix + "[")
    }
}

/// Every change between two sets, breaking first, with `--allow` applied.
package struct ContractSetDiff: Sendable {
    package var changes: [ContractChange]
    package var oldCount: Int
    package var newCount: Int

    package var breaking: [ContractChange] { changes.filter { $0.impact == .breaking && !$0.allowed } }
    package var allowed: [ContractChange] { changes.filter { $0.impact == .breaking && $0.allowed } }
    package var compatible: [ContractChange] { changes.filter { $0.impact == .compatible } }

    /// 1 when any change breaks old clients and was not allowed, 0 otherwise.
    package var exitCode: Int32 { breaking.isEmpty ? 0 : 1 }

    /// `--allow` values that accept no breaking change: a typo, or a change that is not there.
    package var unusedRules: [String] = []

    /// - Parameter pairing: `.byStatus` for two sets imported from OpenAPI documents, whose
    ///   response names are the importer's and whose declared statuses are what a client reads.
    package init(old: ContractSet, new: ContractSet, allow rules: [String] = [], pairing: ResponsePairing = .byName) {
        self.init(old: old, new: new, allow: rules, pairing: pairing, keptDefaults: ([], []))
    }

    /// Two imported OpenAPI documents, compared by the statuses they declare.
    package init(old: ImportedDocument.Loaded, new: ImportedDocument.Loaded, allow rules: [String] = []) {
        self.init(old: old.set, new: new.set, allow: rules, pairing: .byStatus, keptDefaults: (old.keptDefaults, new.keptDefaults))
    }

    private init(
        old: ContractSet, new: ContractSet, allow rules: [String], pairing: ResponsePairing, keptDefaults: (old: Set<String>, new: Set<String>)
    ) {
        var changes = SetComparison(old: old, new: new, pairing: pairing, keptDefaults: keptDefaults).changes()
        var used: Set<String> = []
        for index in changes.indices where changes[index].impact == .breaking {
            let accepting = rules.filter { changes[index].isAllowed(by: $0) }
            changes[index].allowed = !accepting.isEmpty
            used.formUnion(accepting)
        }
        var unused: [String] = []
        for rule in rules where !used.contains(rule) && !unused.contains(rule) { unused.append(rule) }
        unusedRules = unused
        changes.sort { ($0.impact == .breaking ? 0 : 1, $0.contract, $0.location) < ($1.impact == .breaking ? 0 : 1, $1.contract, $1.location) }
        self.changes = changes
        oldCount = old.contracts.count
        newCount = new.contracts.count
    }
}
