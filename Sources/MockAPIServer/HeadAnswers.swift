import MockAPICore
import Synchronization

/// What `RequestHandler.answerAtHead` answers each contract with, in one read: a plain request's
/// (no `Prefer`, query or body) prepared response, its status, and the contract's and response's
/// names as the journal records them. Filled by asking the responder and the prepared responses
/// themselves (`plainAnswer`, `responseAndStatus`, `names`) once every response is built (at
/// once, or when the port is known for `{{baseURL}}` bodies), after which a serving state never
/// changes their answers; so an entry is what those four calls into two modules would give
/// every request, for about 90 instructions less. A contract without one (a delay, a body made
/// per request, a choice by query or body) is nil and asked the long way, as is every contract
/// before the table is filled.
final class HeadAnswers: @unchecked Sendable {
    // Why unchecked: `answers` is written once, in `fill`, before `filled` is published with
    // release ordering; readers check it with acquire ordering first. The names' bytes are the
    // responder's (`NameBytes`), which lives as long as the serving state that holds both.
    struct Answer {
        let response: OpaquePointer
        let status: Int
        let contract: UnsafeRawBufferPointer
        let responseName: UnsafeRawBufferPointer
    }

    private let answers: UnsafeMutableBufferPointer<Answer?>
    private let filled = Atomic<Bool>(false)

    init(contracts count: Int) {
        answers = .allocate(capacity: max(count, 1))
        answers.initialize(repeating: nil)
    }

    deinit { answers.deallocate() }

    var isFilled: Bool { filled.load(ordering: .acquiring) }

    /// Every contract's answer; call once, when `prepared` has built every response it will.
    func fill(responder: Responder, prepared: PreparedResponses) {
        for contract in 0..<responder.set.contracts.count {
            guard let response = responder.plainAnswer(toContract: contract, prefers: false),
                let (ready, status) = prepared.responseAndStatus(contract: contract, response: response)
            else { continue }
            answers[contract] = Answer(
                response: ready, status: status, contract: responder.names.contract(contract),
                responseName: responder.names.response(contract: contract, response: response))
        }
        filled.store(true, ordering: .releasing)
    }

    /// Contract `index`'s answer (`index` is the responder's own, so in range); nil before `fill`.
    @inline(__always)
    subscript(contract index: Int) -> Answer? {
        filled.load(ordering: .acquiring) ? answers[index] : nil
    }
}
