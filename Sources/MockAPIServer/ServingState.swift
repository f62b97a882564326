import CMicroHTTPDShims
import MockAPICore
import Synchronization
import SystemLibc

/// What requests are answered from: one contract set's responder and prepared responses.
/// A reload builds a new one and swaps it in whole; requests already under way finish on the
/// one they began with, and its MHD responses go when the last of them does.
final class ServingState: Sendable {
    let responder: Responder
    let prepared: PreparedResponses
    /// What a plain request to each contract is answered with at its head.
    let headAnswers: HeadAnswers

    init(responder: Responder, prepared: PreparedResponses) {
        self.responder = responder
        self.prepared = prepared
        headAnswers = HeadAnswers(contracts: responder.set.contracts.count)
        if prepared.everyResponseBuilt { headAnswers.fill(responder: responder, prepared: prepared) }
    }

    deinit { prepared.destroyAll() }

    /// Builds the responses whose only placeholder is `{{baseURL}}` (`PreparedResponses.prepare`),
    /// then the head's answers, which may be among them. Call once, as soon as the port is known.
    func prepare(baseURL: String) {
        prepared.prepare(baseURL: baseURL)
        if !headAnswers.isFilled { headAnswers.fill(responder: responder, prepared: prepared) }
    }
}

/// One worker thread's hold on the serving state. Requests retain this per-thread object, never
/// the shared state: a retain on an object every worker touches bounced its cache line between
/// cores on every request.
final class StateLease: Sendable {
    let state: ServingState
    let generation: Int

    init(state: ServingState, generation: Int) {
        self.state = state
        self.generation = generation
    }
}

/// The current serving state, swapped atomically by a reload and read on every request through a
/// thread-local lease: one atomic load of the generation, no lock, unless a reload happened.
final class ServingStateCell: @unchecked Sendable {
    // Why unchecked: `key` is a pthread key, written once in init; the thread-local values it
    // holds, and the thread's lease cache, are touched only by their own thread.
    private let current: Mutex<(state: ServingState, generation: Int)>
    private let generation = Atomic<Int>(0)
    private let key: pthread_key_t
    /// Names this cell in a thread's lease cache (`CMicroHTTPDShims_cached_lease`): never reused,
    /// so a cache left by a cell that is gone matches no other.
    private let id = ServingStateCell.ids.add(1, ordering: .relaxed).newValue
    private static let ids = Atomic<UInt64>(0)

    init(_ state: ServingState) {
        current = Mutex((state, 0))
        var key = pthread_key_t()
        // A thread's lease is released when the thread ends (MHD's workers end when it stops).
        pthread_key_create(&key) { lease in
            #if canImport(Darwin)
            Unmanaged<StateLease>.fromOpaque(lease).release()
            #else
            if let lease { Unmanaged<StateLease>.fromOpaque(lease).release() }
            #endif
        }
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    /// The state new requests get, for readers off the request path.
    var state: ServingState { current.withLock { $0.state } }

    /// The calling thread's lease on the current state, renewed when a reload has happened.
    /// Unretained: the thread keeps it until its next call here, so a caller that keeps it past
    /// that retains it (a request's context, a held answer); one that does not pays nothing.
    /// Read from the thread's lease cache, a C thread-local that holds the lease this cell's key
    /// holds for the thread (`pthread_getspecific` was a call into libc on every request).
    @inline(__always)
    func lease() -> Unmanaged<StateLease> {
        let wanted = generation.load(ordering: .acquiring)
        if let cached = CMicroHTTPDShims_cached_lease(id) {
            let lease = Unmanaged<StateLease>.fromOpaque(cached)
            if lease._withUnsafeGuaranteedRef({ $0.generation }) == wanted { return lease }
        }
        return renewedLease(wanted)
    }

    /// The thread's lease from its key (another cell's was cached), or a fresh one after a reload
    /// (the old one released); cached either way.
    @inline(never)
    private func renewedLease(_ wanted: Int) -> Unmanaged<StateLease> {
        if let stored = pthread_getspecific(key) {
            let lease = Unmanaged<StateLease>.fromOpaque(stored)
            if lease._withUnsafeGuaranteedRef({ $0.generation }) == wanted {
                CMicroHTTPDShims_cache_lease(id, stored)
                return lease
            }
            lease.release()
        }
        let fresh = Unmanaged.passRetained(current.withLock { StateLease(state: $0.state, generation: $0.generation) })
        pthread_setspecific(key, fresh.toOpaque())
        CMicroHTTPDShims_cache_lease(id, fresh.toOpaque())
        return fresh
    }

    /// Makes `state` the one new requests are answered from.
    func replace(with state: ServingState) {
        current.withLock { current in
            current = (state, current.generation + 1)
            generation.store(current.generation, ordering: .releasing)
        }
    }
}
