import Foundation
import MockAPICore
import Synchronization

/// Builds a new serving state from the contract files and swaps it in, for `POST
/// /__mockapi/reload`, `mockapi serve --watch` and `MockServer.reload()`. The set is loaded and
/// checked whole first: a broken edit leaves the serving state as it was.
final class Reloader: Sendable {
    let serving: ServingStateCell
    let journal: RequestJournal
    let sessions: SessionRegistry
    let adminAccess: AdminAccess
    let policy: ServingPolicy
    /// Ready after a reload that served its set, `reloadFailed` after one that could not.
    let readiness: Readiness
    let source: (contracts: String, fixtures: String)?
    /// Known once the server listens (the port may be 0 until then).
    let baseURL = Mutex("")

    init(
        serving: ServingStateCell, journal: RequestJournal, sessions: SessionRegistry, adminAccess: AdminAccess, policy: ServingPolicy,
        readiness: Readiness, source: (contracts: String, fixtures: String)?
    ) {
        self.sessions = sessions
        self.readiness = readiness
        self.policy = policy
        self.serving = serving
        self.journal = journal
        self.adminAccess = adminAccess
        self.source = source
    }

    /// A serving state for `set`, its `{{baseURL}}` bodies built.
    func state(for set: ContractSet) -> ServingState {
        let prepared = PreparedResponses(set: set, extraHeaders: policy.extraHeaders)
        let url = baseURL.withLock { $0 }
        if !url.isEmpty { prepared.prepare(baseURL: url) }
        return ServingState(responder: Responder(set: set, journal: journal, adminAccess: adminAccess, policy: policy, readiness: readiness, sessions: sessions), prepared: prepared)
    }

    /// Loads the files again and serves them if they are usable; the set, or every problem.
    func reload() -> Result<ContractSet, ContractSetError> {
        guard let source else { return .failure(ContractSetError(problems: [LoadProblem(file: "-", message: "the server was started from a set in memory")])) }
        let loaded: ContractSet
        do {
            loaded = try ContractSet.load(contracts: URL(fileURLWithPath: source.contracts), fixtures: URL(fileURLWithPath: source.fixtures))
        } catch {
            readiness.set(.reloadFailed)
            return .failure(error)
        }
        serving.replace(with: state(for: loaded))
        // Sequence positions are kept by contract index, which a new set may renumber: every
        // session starts its sequences over, as the server-wide ones do with the new responder.
        for session in sessions.all() { session.scenarios.reset() }
        readiness.set(.ready)
        return .success(loaded)
    }

    /// `reload()` as the admin endpoint answers it.
    func reloadAnswer() -> GeneratedResponse {
        switch reload() {
        case .success(let set):
            return GeneratedResponse(status: 200, json: ["reloaded": true, "routes": .int(set.contracts.count)])
        case .failure(let error):
            return GeneratedResponse(
                status: 422,
                json: [
                    "reloaded": false,
                    "error": "the contract set is not usable; the previous one is still served",
                    "problems": .array(error.problems.map { .string($0.description) }),
                ])
        }
    }
}
