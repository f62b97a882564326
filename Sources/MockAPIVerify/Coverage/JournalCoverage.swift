package import Foundation
import MockAPICore

/// Reads a running server's journal and route table into a ``CoverageReport``: the gate for a
/// client written in any language, run after its own tests sent their traffic to `mockapi serve`.
///
/// ```swift
/// let report = try await JournalCoverage.read(from: URL(string: "http://127.0.0.1:8080")!)
/// #expect(report.exitCode == 0, "\(TextCoverageReport.render(report))")
/// ```
///
/// Several servers (instances behind a balancer) read as one report: a contract counts as
/// exercised when any of them served it, and every refusal of every one is listed.
package enum JournalCoverage {
    /// Entries per journal page: bounded answers, however long the run was.
    static let pageSize = 1_000

    /// Which of a server's journals to read: its own (requests made without a session), and its
    /// sessions' (each session keeps its requests in a journal of its own).
    package enum Sessions: Sendable, Equatable {
        /// The server-wide journal only.
        case none
        /// These sessions' journals only: each is read from whichever server has it, and one no
        /// server has fails the read.
        case only([String])
        /// The server-wide journal and every live session's.
        case all
    }

    /// A server that could not be read, and why.
    package struct Unreadable: Error, CustomStringConvertible {
        package var url: URL
        package var underlying: any Error
        package var description: String { "cannot read the journal at \(url.absoluteString): \(underlying)" }
    }

    /// Sessions that `.only` named and no server had.
    package struct SessionsNotFound: Error, CustomStringConvertible {
        package var ids: [String]
        package var urls: [URL]
        package var description: String {
            let servers = urls.map(\.absoluteString).joined(separator: ", ")
            return "no session \(ids.joined(separator: ", ")) at \(servers) (GET /__mockapi/sessions lists the live ones; ended and expired sessions keep no journal)"
        }
    }

    /// - Parameter since: only requests after this journal id (0: the whole journal).
    /// - Parameter adminToken: the server's `--admin-token`, if it was started with one.
    package static func read(from baseURL: URL, since: Int = 0, strict: Bool = false, adminToken: String? = nil) async throws -> CoverageReport {
        try await read(from: [baseURL], since: since, strict: strict, adminToken: adminToken)
    }

    /// Every server in `baseURLs` read and merged into one report. A server that cannot be read
    /// throws ``Unreadable`` naming it.
    /// - Parameter since: only requests after this journal id, in every journal read.
    package static func read(
        from baseURLs: [URL], sessions: Sessions = .none, since: Int = 0, strict: Bool = false, adminToken: String? = nil
    ) async throws -> CoverageReport {
        var tally = CoverageTally(strict: strict)
        var wanted = Set(sessions.named)
        let labelled = baseURLs.count > 1 || sessions != .none
        for url in baseURLs {
            do {
                let admin = AdminClient(baseURL: url, token: adminToken)
                tally.add(routes: try await admin.routes())
                var journals: [String?] = sessions == .all || sessions == .none ? [nil] : []
                if sessions != .none {
                    let live = try await admin.sessions()
                    journals += sessions == .all ? live : live.filter { wanted.contains($0) }
                }
                for session in journals {
                    let label = labelled ? url.absoluteString + (session.map { Responder.sessionPathPrefix + $0 } ?? "") : nil
                    do {
                        try await read(AdminClient(baseURL: url, token: adminToken, session: session), since: since, label: label, into: &tally)
                        if let session { wanted.remove(session) }
                    } catch is AdminClient.SessionGone {
                        // Ended or expired between the listing and the read: it has no journal to read.
                    }
                }
            } catch {
                throw Unreadable(url: url, underlying: error)
            }
        }
        if !wanted.isEmpty { throw SessionsNotFound(ids: sessions.named.filter(wanted.contains), urls: baseURLs) }
        return tally.report(target: target(baseURLs, sessions))
    }

    /// One journal, page by page, into the tally.
    private static func read(_ journal: AdminClient, since: Int, label: String?, into tally: inout CoverageTally) async throws {
        var cursor = since
        while true {
            let page = try await journal.page(JournalQuery(since: cursor, limit: pageSize))
            // Each page counts the requests evicted after its cursor, which no earlier page read.
            tally.evicted += page.evicted
            for entry in page.entries { tally.add(entry, journal: label) }
            guard let last = page.entries.last?.id, page.entries.count == pageSize else { break }
            cursor = last
        }
    }

    /// `http://a:1, http://b:2`, and which of their journals were read.
    private static func target(_ urls: [URL], _ sessions: Sessions) -> String {
        let servers = urls.map(\.absoluteString).joined(separator: ", ")
        switch sessions {
        case .none: return servers
        case .all: return "\(servers) (and all their sessions)"
        case .only(let ids): return "\(servers) (session\(ids.count == 1 ? "" : "s") \(ids.joined(separator: ", ")))"
        }
    }
}

extension JournalCoverage.Sessions {
    /// The ids `.only` names.
    var named: [String] {
        if case .only(let ids) = self { ids } else { [] }
    }
}
