import MockAPICore

/// A ``CoverageReport`` being summed up from one journal or several (servers, sessions): the
/// contracts are the union of the route tables read, by name, in the order first seen.
struct CoverageTally {
    var strict: Bool
    var requests = 0
    var evicted = 0
    var unmatched: [CoverageReport.Refusal] = []
    var violations: [CoverageReport.Refusal] = []
    var browsing: [CoverageReport.Refusal] = []
    private var contracts: [CoverageReport.ContractUse] = []
    private var position: [String: Int] = [:]

    init(strict: Bool) {
        self.strict = strict
    }

    /// A server's route table; contracts already known by name are kept as first read.
    mutating func add(routes: [RouteListing]) {
        for route in routes where position[route.contract] == nil {
            position[route.contract] = contracts.count
            contracts.append(CoverageReport.ContractUse(name: route.contract, method: route.method, path: route.path, file: route.file, served: 0))
        }
    }

    /// One journal entry. `journal`: where it was read, when the report reads several journals
    /// (their ids overlap).
    mutating func add(_ entry: JournalEntry, journal: String?) {
        requests += 1
        let contract = entry.contract
        if entry.response != nil {
            if let contract, let index = position[contract] { contracts[index].served += 1 }
            return
        }
        let refusal = CoverageReport.Refusal(
            id: entry.id, method: entry.method, target: entry.path + (entry.query.isEmpty ? "" : "?" + entry.query),
            status: entry.status, contract: contract, problem: entry.problem ?? "refused (status \(entry.status))", journal: journal)
        if contract != nil {
            violations.append(refusal)
        } else if CoverageReport.isBrowsing(path: entry.path, secFetchMode: entry.headers.value(for: "Sec-Fetch-Mode")) {
            browsing.append(refusal)
        } else {
            unmatched.append(refusal)
        }
    }

    func report(target: String) -> CoverageReport {
        var report = CoverageReport(
            target: target, requests: requests, unmatched: unmatched, violations: violations, contracts: contracts,
            strict: strict, evicted: evicted)
        report.browsing = browsing
        return report
    }
}
