import Synchronization
import SystemLibc

/// One client's private view of the mock (a UI test running beside others): its own sequence
/// positions and its own journal, so two tests running the same flow never advance each other's
/// `sequence` nor read each other's requests.
///
/// Per-session stores hang here: what a session keeps of its own goes in a field of this class
/// (a stateful resource store included), so ending the session (`SessionRegistry.remove`) drops
/// it all at once.
package final class SessionState: Sendable {
    /// 16 lowercase hex digits (`SessionID`), and their value, which the registry keys it by.
    package let id: String
    package let key: UInt64
    /// Wall-clock milliseconds since 1970, for `GET /__mockapi/sessions`.
    package let createdAt: Int64
    /// Where this session's response sequences have got to; the server-wide one is untouched.
    package let scenarios = ScenarioState()
    /// What this session's resource operations (`resource` contracts) have written.
    package let resources = ResourceStore()
    /// What `{{counter}}` counts in this session's answers.
    package let answers = AnswerCounter()
    /// Its `{{baseURL}}` answers, built once with its own URL.
    package let responses = SessionResponseCache()
    /// The requests made in this session, and only those.
    ///
    /// Why a journal of its own rather than a session field in the server-wide journal's records:
    /// a request without a session then records exactly as before (no field to write, no filter
    /// to run on read), a session's reads never scan other sessions' traffic, and ending a session
    /// frees its records at once instead of leaving them to age out of the shared budget. The
    /// cost is a smaller byte budget per session (`SessionRegistry.Limits.journalMaxBytes`).
    package let journal: RequestJournal
    private let createdMonotonic: UInt64
    private let lastUsedMonotonic: Atomic<UInt64>
    private let requestCount = Atomic<Int>(0)
    /// Set once the registry has let it go (deleted, or dropped as expired): a thread's cached
    /// copy (`SessionRegistry.recentSession`) is then never served again.
    private let endedFlag = Atomic<Bool>(false)

    var hasEnded: Bool { endedFlag.load(ordering: .acquiring) }

    func end() {
        endedFlag.store(true, ordering: .releasing)
    }

    init(key: UInt64, journal: RequestJournal, now: SessionClock.Instant) {
        self.key = key
        id = SessionID.text(key)
        self.journal = journal
        createdAt = now.epochMilliseconds
        createdMonotonic = now.monotonicNanoseconds
        lastUsedMonotonic = Atomic(now.monotonicNanoseconds)
    }

    /// Wall-clock milliseconds of the last request in this session (or its creation): counted
    /// from its creation on the monotonic clock, so a request reads one clock, not two.
    package var lastUsedAt: Int64 {
        createdAt + Int64((lastUsedMonotonic.load(ordering: .relaxed) &- createdMonotonic) / 1_000_000)
    }
    /// Requests served in this session so far (resets do not clear it).
    package var requests: Int { requestCount.load(ordering: .relaxed) }

    /// Counts a request made in this session and keeps it alive; `now` is monotonic nanoseconds.
    func used(at now: UInt64) {
        requestCount.wrappingAdd(1, ordering: .relaxed)
        lastUsedMonotonic.store(now, ordering: .relaxed)
    }

    /// Nanoseconds since the last use; `now` is monotonic nanoseconds.
    func idleNanoseconds(at now: UInt64) -> UInt64 {
        let last = lastUsedMonotonic.load(ordering: .relaxed)
        return now > last ? now - last : 0
    }

    /// Starts its sequences over, empties its resources back to their seeds and its journal
    /// (`POST /__mockapi/sessions/ID/reset`).
    package func reset() {
        scenarios.reset()
        resources.reset()
        journal.reset()
    }

    /// The session as `GET /__mockapi/sessions` lists it.
    package var json: JSONValue {
        ["id": .string(id), "created": .int(Int(createdAt)), "lastUsed": .int(Int(lastUsedAt)), "requests": .int(requests)]
    }
}

/// The two clocks a session is read by: the monotonic one for idle time (a wall-clock jump must
/// neither expire every session nor keep them forever), the wall clock for what is shown.
package struct SessionClock: Sendable {
    package struct Instant: Sendable {
        package var monotonicNanoseconds: UInt64
        package var epochMilliseconds: Int64
    }

    /// Monotonic nanoseconds: all a lookup reads.
    package static func monotonicNanoseconds() -> UInt64 {
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        // Unchecked: the monotonic clock counts from boot, centuries short of overflowing.
        return UInt64(truncatingIfNeeded: monotonic.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: monotonic.tv_nsec)
    }

    package static func now() -> Instant {
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        return Instant(
            monotonicNanoseconds: UInt64(monotonic.tv_sec) * 1_000_000_000 + UInt64(monotonic.tv_nsec),
            epochMilliseconds: Int64(real.tv_sec) * 1000 + Int64(real.tv_nsec) / 1_000_000)
    }
}
