package import Foundation
import MockAPICore

/// Reads a running server's journal and route table into a ``CoverageReport``: the gate for a
/// client written in any language, run after its own tests sent their traffic to `mockapi serve`.
///
/// ```swift
/// let report = try await JournalCoverage.read(from: URL(string: "http://127.0.0.1:8080")!)
/// #expect(report.exitCode == 0, "\(TextCoverageReport.render(report))")
/// ```
package enum JournalCoverage {
    /// Entries per journal page: bounded answers, however long the run was.
    static let pageSize = 1_000

    /// - Parameter since: only requests after this journal id (0: the whole journal).
    /// - Parameter adminToken: the server's `--admin-token`, if it was started with one.
    package static func read(from baseURL: URL, since: Int = 0, strict: Bool = false, adminToken: String? = nil) async throws -> CoverageReport {
        let admin = AdminClient(baseURL: baseURL, token: adminToken)
        var contracts = try await admin.routes().map { route in
            CoverageReport.ContractUse(name: route.contract, method: route.method, path: route.path, file: route.file, served: 0)
        }
        let position = Dictionary(contracts.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var report = CoverageReport(
            target: baseURL.absoluteString, requests: 0, unmatched: [], violations: [], contracts: [],
            strict: strict, evicted: 0)
        var cursor = since
        while true {
            let page = try await admin.page(JournalQuery(since: cursor, limit: pageSize))
            // Each page counts the requests evicted after its cursor, which no earlier page read.
            report.evicted += page.evicted
            for entry in page.entries {
                report.requests += 1
                let contract = entry.contract
                if entry.response != nil {
                    if let contract, let index = position[contract] { contracts[index].served += 1 }
                    continue
                }
                let refusal = CoverageReport.Refusal(
                    id: entry.id, method: entry.method, target: entry.path + (entry.query.isEmpty ? "" : "?" + entry.query),
                    status: entry.status, contract: contract, problem: entry.problem ?? "refused (status \(entry.status))")
                if contract != nil {
                    report.violations.append(refusal)
                } else if CoverageReport.isBrowsing(path: entry.path, secFetchMode: entry.headers.value(for: "Sec-Fetch-Mode")) {
                    report.browsing.append(refusal)
                } else {
                    report.unmatched.append(refusal)
                }
            }
            guard let last = page.entries.last?.id, page.entries.count == pageSize else { break }
            cursor = last
        }
        report.contracts = contracts
        return report
    }
}
