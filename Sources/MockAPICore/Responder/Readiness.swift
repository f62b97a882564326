import Synchronization

/// Whether the server can answer from its contract set, for `GET /__mockapi/ready`: shared by
/// every serving state (a reload swaps the responder, not this), like the journal.
///
/// Deliberately coarse: a probe learns the state's name and nothing about the set or its files.
package final class Readiness: Sendable {
    package enum State: UInt8, Sendable {
        /// The server listens, but its set is not in place yet (bodies with `{{baseURL}}` are
        /// built once the port is known).
        case loading
        case ready
        /// The last reload failed: the previous set is still served, but it is not what the
        /// files say, so a deployment that gates on readiness should not take this one.
        case reloadFailed
    }

    private let value: Atomic<UInt8>

    package init(_ state: State = .ready) { value = Atomic(state.rawValue) }

    package var state: State { State(rawValue: value.load(ordering: .relaxed))! }

    package func set(_ state: State) { value.store(state.rawValue, ordering: .relaxed) }
}

extension Readiness.State {
    /// What `GET /__mockapi/ready` says in its body: `{"status":"…"}`.
    package var text: String {
        switch self {
        case .loading: "loading"
        case .ready: "ready"
        case .reloadFailed: "reload failed"
        }
    }
}
