import CMicroHTTPD
import Dispatch
import Synchronization

/// Connections parked with `MHD_suspend_connection` until their answer is due (a delay) or
/// ready (a reload): the worker thread serves other connections meanwhile, and the answer is
/// queued when MHD calls the access handler again after `MHD_resume_connection`.
///
/// MHD must not be stopped with a connection suspended, so `resumeAll` wakes every one first
/// (each is answered at once), and nothing is suspended after it.
final class Suspensions: Sendable {
    private struct Parked: @unchecked Sendable, Hashable {
        // Why unchecked: MHD allows resuming a connection from any thread.
        let connection: OpaquePointer
    }

    private let parked = Mutex<(connections: Set<Parked>, stopped: Bool)>(([], false))
    private let timers = DispatchQueue(label: "mockapi.delays", attributes: .concurrent)

    /// Parks `connection` (call from its access handler); false once the server is stopping,
    /// when the caller must answer at once instead.
    func suspend(_ connection: OpaquePointer) -> Bool {
        parked.withLock { state in
            guard !state.stopped else { return false }
            MHD_suspend_connection(connection)
            state.connections.insert(Parked(connection: connection))
            return true
        }
    }

    /// Wakes a parked connection; does nothing if it was already woken.
    func resume(_ connection: OpaquePointer) {
        parked.withLock { state in
            guard state.connections.remove(Parked(connection: connection)) != nil else { return }
            MHD_resume_connection(connection)
        }
    }

    /// Parks `connection` and wakes it after `milliseconds`; false as for `suspend`.
    func resume(_ connection: OpaquePointer, afterMilliseconds milliseconds: Double) -> Bool {
        guard suspend(connection) else { return false }
        let parkedConnection = Parked(connection: connection)
        timers.asyncAfter(deadline: .now() + .microseconds(Int(milliseconds * 1000))) { [self] in resume(parkedConnection.connection) }
        return true
    }

    /// Runs `body` while `connection` is still parked, under the lock that waking takes, so a
    /// writer on another thread never writes to a connection MHD has taken back. False once woken.
    func whileParked(_ connection: OpaquePointer, _ body: () -> Void) -> Bool {
        parked.withLock { state in
            guard state.connections.contains(Parked(connection: connection)) else { return false }
            body()
            return true
        }
    }

    /// Wakes every parked connection and parks no more: the server is stopping.
    func resumeAll() {
        parked.withLock { state in
            state.stopped = true
            for parked in state.connections { MHD_resume_connection(parked.connection) }
            state.connections.removeAll()
        }
    }
}
