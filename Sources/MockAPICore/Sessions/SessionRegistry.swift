import Synchronization

/// Every live session, by id, within bounds: at most `maxSessions` at once, each ended after
/// `idleTimeoutSeconds` without a request. Expiry is checked lazily, when a session is looked up
/// and when one is created or listed, so no thread of its own is needed and an idle server does
/// no work.
///
/// Kept across reloads (the server holds one, as it holds the journal).
package final class SessionRegistry: Sendable {
    package struct Limits: Sendable, Equatable {
        /// Sessions alive at once; past it, creating one is refused (429).
        package var maxSessions: Int
        /// Seconds without a request after which a session is gone.
        package var idleTimeoutSeconds: Int
        /// Each session's journal: entries, and bytes of records.
        package var journalCapacity: Int
        package var journalMaxBytes: Int
        package var redaction: HeaderRedaction

        package static let defaultMaxSessions = 1_000
        package static let defaultIdleTimeoutSeconds = 1_800

        package init(
            maxSessions: Int = defaultMaxSessions, idleTimeoutSeconds: Int = defaultIdleTimeoutSeconds,
            journalCapacity: Int = RequestJournal.defaultCapacity, journalMaxBytes: Int? = nil, redaction: HeaderRedaction = .standard
        ) {
            self.maxSessions = maxSessions
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.journalCapacity = journalCapacity
            self.journalMaxBytes = journalMaxBytes ?? Self.sessionJournalBytes(total: RequestJournal.defaultMaxBytes, maxSessions: maxSessions)
            self.redaction = redaction
        }

        /// A session's journal budget: all sessions' journals together hold at most four times
        /// the server-wide `--journal-bytes` (256 MiB by default, 268 KB a session: several
        /// hundred requests, ample for one UI test), never under 64 KiB a session nor over the
        /// server-wide budget.
        package static func sessionJournalBytes(total: Int, maxSessions: Int) -> Int {
            let share = total / max(1, maxSessions) * 4
            return min(total, max(64 * 1024, share))
        }
    }

    package let limits: Limits
    private let sessions = Mutex<[UInt64: SessionState]>([:])
    /// `http://HOST:PORT` the server listens on, set once the port is known (`listening(at:)`):
    /// a new session's base URL when its request carried no usable `Host`.
    private let listeningAddress = Mutex("")

    package var listeningURL: String { listeningAddress.withLock { $0 } }

    package func listening(at url: String) {
        listeningAddress.withLock { $0 = url }
    }

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    private var idleNanoseconds: UInt64 { UInt64(limits.idleTimeoutSeconds) * 1_000_000_000 }

    /// Why a session could not be made.
    package enum Refusal: Error, Sendable, Equatable {
        /// `maxSessions` are alive; the first of them would expire, if left alone, in this many
        /// seconds (for `Retry-After`).
        case full(retryAfterSeconds: Int)
        /// The id the client proposed is a live session's.
        case taken
    }

    /// A new session, with a random id or, when the client proposed one, that id (`key`: a
    /// balancer in front of several servers then picks the server by the id before the session
    /// exists, `PUT /__mockapi/sessions/ID`). Refused when `maxSessions` are alive (expired ones
    /// are dropped first) or the proposed id is taken.
    package func create(key proposed: UInt64? = nil) -> Result<SessionState, Refusal> {
        let now = SessionClock.now()
        let journal = RequestJournal(
            capacity: limits.journalCapacity, maxBytes: limits.journalMaxBytes, redaction: limits.redaction, shards: 1)
        return sessions.withLock { sessions -> Result<SessionState, Refusal> in
            dropExpired(&sessions, at: now)
            if let proposed, sessions[proposed] != nil { return .failure(.taken) }
            guard sessions.count < limits.maxSessions else {
                let longestIdle = sessions.values.map { $0.idleNanoseconds(at: now.monotonicNanoseconds) }.max() ?? 0
                let left = idleNanoseconds > longestIdle ? idleNanoseconds - longestIdle : 0
                return .failure(.full(retryAfterSeconds: max(1, Int((left + 999_999_999) / 1_000_000_000))))
            }
            var key = proposed ?? SessionID.make()
            while proposed == nil, sessions[key] != nil { key = SessionID.make() }
            let session = SessionState(key: key, journal: journal, now: now)
            sessions[key] = session
            return .success(session)
        }
    }

    /// The live session `id`, or nil when there is none (never made, ended, or expired: an
    /// expired one is dropped here). `use`: count a request made in it and keep it alive.
    package func session(_ id: UInt64, use: Bool = false) -> SessionState? {
        let now = SessionClock.monotonicNanoseconds()
        return sessions.withLock { sessions -> SessionState? in
            guard let session = sessions[id] else { return nil }
            guard session.idleNanoseconds(at: now) < idleNanoseconds else {
                sessions[id] = nil
                return nil
            }
            if use { session.used(at: now) }
            return session
        }
    }

    /// Ends session `id`; false when there was no live one.
    @discardableResult
    package func remove(_ id: UInt64) -> Bool {
        session(id) != nil && sessions.withLock { $0.removeValue(forKey: id) != nil }
    }

    /// The live sessions, oldest first.
    package func all() -> [SessionState] {
        let now = SessionClock.now()
        return sessions.withLock { sessions in
            dropExpired(&sessions, at: now)
            return sessions.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    /// How many are alive, expired ones not counted.
    package var count: Int { all().count }

    private func dropExpired(_ sessions: inout [UInt64: SessionState], at now: SessionClock.Instant) {
        let idle = idleNanoseconds
        sessions = sessions.filter { $0.value.idleNanoseconds(at: now.monotonicNanoseconds) < idle }
    }
}
