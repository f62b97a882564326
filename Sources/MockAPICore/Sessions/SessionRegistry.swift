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
        idleNanoseconds = UInt64(limits.idleTimeoutSeconds) * 1_000_000_000
        recent = (0..<Self.recentSlots).map { _ in RecentCell() }
        borrowedRecent = recent.map { Unmanaged.passUnretained($0) }
    }

    /// The last session each thread slot served a request in, by its id's 16 bytes: the next
    /// request in the same session on that thread (a UI test's flow, on its keep-alive connection)
    /// skips parsing the id, the registry's lock and its hash lookup, about 500 instructions. A
    /// cached session is served only while it is live: the registry ends it (`SessionState.end`)
    /// when it lets it go, and clears it from here (`forget`), and its idle time is checked as
    /// on a lookup.
    private final class RecentCell: Sendable {
        let entry = Mutex<RecentSession?>(nil)
    }

    private struct RecentSession: Sendable {
        var low: UInt64
        var high: UInt64
        var session: SessionState
    }

    private static let recentSlots = 16
    private let recent: [RecentCell]
    /// The same cells, unretained, for the request path to borrow (`recent` keeps them).
    private let borrowedRecent: [Unmanaged<RecentCell>]

    /// The live session the id's bytes name, when it is the one thread slot `threadSlot` served
    /// last (counted as used); nil otherwise, and the caller looks it up (`session(_:use:)`).
    package func recentSession(id bytes: UnsafeBufferPointer<UInt8>, threadSlot: Int) -> SessionState? {
        guard bytes.count == SessionID.length, let start = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(start)
        return recentSession(low: raw.loadUnaligned(as: UInt64.self), high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), threadSlot: threadSlot)
    }

    /// The same for an id's 16 bytes read as two words (the request path reads them off its path).
    package func recentSession(low: UInt64, high: UInt64, threadSlot: Int) -> SessionState? {
        let idle = idleNanoseconds
        let now = SessionClock.monotonicNanoseconds()
        return borrowedRecent[threadSlot & (Self.recentSlots - 1)]._withUnsafeGuaranteedRef { cell in
            // Field by field: binding the whole entry retained and released its session once more.
            cell.entry.withLock { entry -> SessionState? in
                guard entry?.low == low, entry?.high == high, let session = entry?.session, !session.hasEnded,
                    session.idleNanoseconds(at: now) < idle
                else { return nil }
                session.used(at: now)
                return session
            }
        }
    }

    /// Makes `session` the one thread slot `threadSlot` served last.
    package func remember(_ session: SessionState, threadSlot: Int) {
        var id = session.id
        guard
            let (low, high) = id.withUTF8({ bytes -> (UInt64, UInt64)? in
                guard bytes.count == SessionID.length, let start = bytes.baseAddress else { return nil }
                let raw = UnsafeRawPointer(start)
                return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            })
        else { return }
        recent[threadSlot & (Self.recentSlots - 1)].entry.withLock { $0 = RecentSession(low: low, high: high, session: session) }
    }

    /// Ends sessions the registry has let go, and drops them from the threads' caches (so their
    /// memory goes now, not when a thread next serves another session).
    private func forget(_ ended: [SessionState]) {
        guard !ended.isEmpty else { return }
        for session in ended { session.end() }
        for cell in recent {
            cell.entry.withLock { entry in
                if let cached = entry?.session, ended.contains(where: { $0 === cached }) { entry = nil }
            }
        }
    }

    /// `limits.idleTimeoutSeconds` in nanoseconds, worked out once (it is read on every request in a session).
    private let idleNanoseconds: UInt64

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
            capacity: limits.journalCapacity, maxBytes: limits.journalMaxBytes, redaction: limits.redaction, shards: 1, reserving: true)
        var expired: [SessionState] = []
        defer { forget(expired) }
        return sessions.withLock { sessions -> Result<SessionState, Refusal> in
            expired = dropExpired(&sessions, at: now)
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
        var expired: SessionState?
        let found = sessions.withLock { sessions -> SessionState? in
            guard let session = sessions[id] else { return nil }
            guard session.idleNanoseconds(at: now) < idleNanoseconds else {
                sessions[id] = nil
                expired = session
                return nil
            }
            if use { session.used(at: now) }
            return session
        }
        if let expired { forget([expired]) }
        return found
    }

    /// Ends session `id`; false when there was no live one.
    @discardableResult
    package func remove(_ id: UInt64) -> Bool {
        guard session(id) != nil, let removed = sessions.withLock({ $0.removeValue(forKey: id) }) else { return false }
        forget([removed])
        return true
    }

    /// The live sessions, oldest first.
    package func all() -> [SessionState] {
        let now = SessionClock.now()
        var expired: [SessionState] = []
        defer { forget(expired) }
        return sessions.withLock { sessions in
            expired = dropExpired(&sessions, at: now)
            return sessions.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    /// How many are alive, expired ones not counted.
    package var count: Int { all().count }

    /// Drops the expired sessions; those dropped, for `forget`.
    private func dropExpired(_ sessions: inout [UInt64: SessionState], at now: SessionClock.Instant) -> [SessionState] {
        let idle = idleNanoseconds
        let expired = sessions.values.filter { $0.idleNanoseconds(at: now.monotonicNanoseconds) >= idle }
        for session in expired { sessions[session.key] = nil }
        return expired
    }
}
