import Dispatch
import MockAPICore
import Synchronization
import SystemLibc

/// Connections parked with `MHD_suspend_connection` until their answer is due (a delay) or
/// ready (a reload): the worker thread serves other connections meanwhile, and the answer is
/// queued when MHD calls the access handler again after `MHD_resume_connection`.
///
/// MHD neither times out a suspended connection nor notices its client leaving, so a sweep looks
/// at every parked socket twice a second while any is parked: one whose client has closed (or
/// reset) is woken at once and closed (`wasAbandoned`), and its slot is free again.
///
/// MHD must not be stopped with a connection suspended, so `resumeAll` wakes every one first
/// (each is answered at once), and nothing is suspended after it.
final class Suspensions: Sendable {
    private struct Parked: @unchecked Sendable, Hashable {
        // Why unchecked: MHD allows resuming a connection from any thread.
        let connection: MHDConnection
    }

    private struct State {
        var connections: Set<MHDConnection> = []
        /// Who parked a connection (its request's context, or a forwarded request's reply): a waker
        /// names the owner it parked for, so it never wakes a later request that MHD gave the same
        /// connection pointer after a client left. Wakers keep their owner alive, so its identity
        /// is not reused while one is pending.
        var owners: [MHDConnection: ObjectIdentifier] = [:]
        /// Woken because their client went away, by owner: closed, not answered, when MHD calls back.
        var abandoned: [MHDConnection: ObjectIdentifier] = [:]
        var sweeping = false
        var stopped = false
    }

    /// How often parked sockets are looked at: a client that leaves frees its slot within this.
    static let sweepInterval = DispatchTimeInterval.milliseconds(500)

    private let parked = Mutex(State())
    /// Wake-ups, sweeps and trickled bytes: short jobs, one at a time. Serial, because a serial
    /// queue gets a thread whenever it has work; `DispatchQueue.global()` and concurrent queues
    /// share the process's pool with Swift tasks (on Linux as many threads as cores), which a
    /// process whose tasks block (a test suite waiting on this very server) holds for seconds.
    let timers = DispatchQueue(label: "mockapi.timers")

    /// Parks `connection` (call from its access handler); false once the server is stopping,
    /// when the caller must answer at once instead.
    func suspend(_ connection: MHDConnection, owner: AnyObject) -> Bool {
        let startSweep = parked.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            connection.suspend()
            let key = connection
            state.connections.insert(key)
            state.owners[key] = ObjectIdentifier(owner)
            state.abandoned[key] = nil // an earlier request's, never collected: MHD closed it without calling back
            defer { state.sweeping = true }
            return !state.sweeping
        }
        guard let startSweep else { return false }
        if startSweep { scheduleSweep() }
        return true
    }

    /// Wakes a parked connection; does nothing if it was already woken, or when it is parked now
    /// for another owner.
    func resume(_ connection: MHDConnection, owner: AnyObject) {
        parked.withLock { state in
            let key = connection
            guard state.owners[key] == ObjectIdentifier(owner) else { return }
            guard state.connections.remove(key) != nil else { return }
            state.owners[key] = nil
            connection.resume()
        }
    }

    /// Parks `connection` and wakes it after `milliseconds` (cut to an hour, whatever the caller
    /// passes: no value can trap the conversion); false as for `suspend`.
    func resume(_ connection: MHDConnection, afterMilliseconds milliseconds: Double, owner: some AnyObject & Sendable) -> Bool {
        guard suspend(connection, owner: owner) else { return false }
        let bounded = milliseconds.isFinite ? min(max(milliseconds, 0), NumberRange.delayMilliseconds.highest) : 0
        timers.asyncAfter(deadline: .now() + .microseconds(Int(bounded * 1000))) { [self] in resume(connection, owner: owner) }
        return true
    }

    /// True (once) when `connection` was woken for `owner` because its client had gone: close it, answer nothing.
    func wasAbandoned(_ connection: MHDConnection, owner: AnyObject) -> Bool {
        parked.withLock { state in
            let key = connection
            guard state.abandoned[key] == ObjectIdentifier(owner) else { return false }
            state.abandoned[key] = nil
            return true
        }
    }

    /// Runs `body` while `connection` is still parked for `owner`, under the lock that waking
    /// takes, so a writer on another thread never writes to a connection MHD has taken back.
    /// False once woken.
    func whileParked(_ connection: MHDConnection, owner: AnyObject, _ body: () -> Void) -> Bool {
        parked.withLock { state in
            guard state.owners[connection] == ObjectIdentifier(owner) else { return false }
            body()
            return true
        }
    }

    /// Wakes every parked connection and parks no more: the server is stopping.
    func resumeAll() {
        parked.withLock { state in
            state.stopped = true
            for parked in state.connections { parked.resume() }
            state.connections.removeAll()
            state.owners.removeAll()
        }
    }

    private func scheduleSweep() {
        timers.asyncAfter(deadline: .now() + Self.sweepInterval) { [self] in sweep() }
    }

    /// Wakes the parked connections whose client has closed or reset; goes on while any is parked.
    private func sweep() {
        let again = parked.withLock { state -> Bool in
            // Under the lock: a parked connection is MHD's to close only once resumed, so its fd is its own.
            for connection in state.connections where Self.clientHasGone(connection) {
                state.connections.remove(connection)
                state.abandoned[connection] = state.owners.removeValue(forKey: connection)
                connection.resume()
            }
            state.sweeping = !state.connections.isEmpty && !state.stopped
            return state.sweeping
        }
        if again { scheduleSweep() }
    }

    /// A FIN (the client closed, or half-closed: as nginx does, taken as giving up) or an error
    /// such as a reset; bytes waiting (a pipelined request) or nothing yet mean it is still there.
    private static func clientHasGone(_ connection: MHDConnection) -> Bool {
        let descriptor = connection.descriptor
        guard descriptor >= 0 else { return false }
        var byte: UInt8 = 0
        let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if peeked == 0 { return true }
        return peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }
}
