import MockAPICore
import Synchronization

/// Every contract response built once at start; queued as many times as requests ask for it.
///
/// MHD responses are reference counted and immutable once queued, so one can serve all
/// threads. Destroyed only after the daemon has stopped.
///
/// A body with placeholders is the exception: one that needs only the server's URL is built
/// once the port is known (`prepare(baseURL:)`), one that needs the request (or makes a value
/// per answer: `{{uuid}}`, `{{now}}`, `{{counter}}`) is rendered for each request (`render`).
/// What is sent is decided in the core (`AnswerRendering`): this keeps the MHD responses made
/// from it, and the server's base URL.
final class PreparedResponses: @unchecked Sendable {
    // Why unchecked: `table` is written in init only; `slots` is written in init and, for the
    // base-URL kind, once in `prepare(baseURL:)` before `baseURLReady` is published with release
    // ordering; readers of those slots check it with acquire ordering first. MHD allows one
    // response to be queued on many connections at once.
    private enum Kind: UInt8 {
        case ready, needsBaseURL, perAnswer
    }

    private let set: ContractSet
    /// Headers and placeholders: what every response here is made from.
    private let rendering: AnswerRendering
    /// Where each contract's responses start in `slots` and `kinds`.
    private let firstSlot: [Int]
    private let kinds: [Kind]
    /// Each slot's kind and status (so a prepared answer needs no second lookup in the contract
    /// set) in one place, for the request path (`responseAndStatus`): one unchecked read where
    /// two arrays cost two bounds checks. Written in init only; freed with the slots.
    private let table: UnsafeMutableBufferPointer<SlotInfo>

    private struct SlotInfo {
        var kind: Kind
        var status: Int
    }
    private let slots: UnsafeMutableBufferPointer<OpaquePointer?>
    private let baseURLReady = Atomic<Bool>(false)
    /// Tells these responses from the ones a reload replaces them with, for what sessions keep.
    private let generation = PreparedResponses.generations.add(1, ordering: .relaxed).newValue
    private static let generations = Atomic<UInt64>(0)
    private let baseURL = Mutex("")
    /// Sessions' `{{baseURL}}` answers built from these responses and replaced by a reload's:
    /// a request of this generation may still queue one, so they are freed with the rest
    /// (`destroyAll`, when the last request holding this state has ended). Once that has run,
    /// one retired late is freed at once: no request of this generation is left to queue it.
    private let retired = Mutex((responses: [UInt](), destroyed: false))
    /// The bodies built by `prepare(baseURL:)`, by slot, kept so `render` shares them instead of
    /// rendering again (a trickled answer sends from them).
    private var baseURLBodies: [Int: [UInt8]] = [:]

    init(set: ContractSet, extraHeaders: [HTTPField] = []) {
        self.set = set
        rendering = AnswerRendering(set: set, extraHeaders: extraHeaders)
        var firstSlot: [Int] = []
        var kinds: [Kind] = []
        for contract in set.contracts {
            firstSlot.append(kinds.count)
            kinds += contract.responses.map { definition in
                guard let template = definition.template else { return .ready }
                return template.rendersPerAnswer ? .perAnswer : .needsBaseURL
            }
        }
        self.firstSlot = firstSlot
        self.kinds = kinds
        let statuses = set.contracts.flatMap { $0.responses.map(\.status) }
        table = .allocate(capacity: max(kinds.count, 1))
        for (slot, kind) in kinds.enumerated() { table.initializeElement(at: slot, to: SlotInfo(kind: kind, status: statuses[slot])) }
        slots = .allocate(capacity: max(kinds.count, 1))
        slots.initialize(repeating: nil)
        for (contractIndex, contract) in set.contracts.enumerated() {
            for (responseIndex, definition) in contract.responses.enumerated() where kinds[firstSlot[contractIndex] + responseIndex] == .ready {
                slots[firstSlot[contractIndex] + responseIndex] = make(contract: contractIndex, response: responseIndex, body: definition.body)
            }
        }
    }

    /// Builds the responses whose only placeholder is `{{baseURL}}`; call once, as soon as the port is known.
    func prepare(baseURL url: String) {
        baseURL.withLock { $0 = url }
        for (contractIndex, contract) in set.contracts.enumerated() {
            for (responseIndex, definition) in contract.responses.enumerated() where kinds[firstSlot[contractIndex] + responseIndex] == .needsBaseURL {
                let body = definition.template!.render(baseURL: url)
                baseURLBodies[firstSlot[contractIndex] + responseIndex] = body
                slots[firstSlot[contractIndex] + responseIndex] = make(contract: contractIndex, response: responseIndex, body: body)
            }
        }
        baseURLReady.store(true, ordering: .releasing)
    }

    /// Whether every response that can be built before a request is: none waits for the port.
    var everyResponseBuilt: Bool { !kinds.contains(.needsBaseURL) || baseURLReady.load(ordering: .acquiring) }

    /// The prepared response and its status, or nil when this request needs its own (`render`).
    /// In a session, a `{{baseURL}}` body names the session's URL, so its links keep the app in
    /// it: that one is built at the session's first request for it and kept in the session.
    /// `session` unretained: the caller holds it (a strong one was retained and released here).
    func responseAndStatus(contract: Int, response: Int, session: Unmanaged<SessionState>? = nil) -> (OpaquePointer, status: Int)? {
        // The responder's own indices into the set these were built from: in range.
        let slot = firstSlot[contract] &+ response
        let info = table[slot]
        switch info.kind {
        case .ready: return slots[slot].map { ($0, info.status) }
        case .needsBaseURL:
            guard baseURLReady.load(ordering: .acquiring) else { return nil }
            guard let session else { return slots[slot].map { ($0, info.status) } }
            return (sessionResponse(slot: slot, contract: contract, response: response, session: session), info.status)
        case .perAnswer: return nil
        }
    }

    @inline(__always)
    private func sessionResponse(slot: Int, contract index: Int, response: Int, session: Unmanaged<SessionState>) -> OpaquePointer {
        // Borrowed: the caller holds the session, and the session its cache.
        let cache = session._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.responses) }
        let kept = cache._withUnsafeGuaranteedRef { $0.cached(generation: generation, slot: slot) }
        return kept ?? makeSessionResponse(slot: slot, contract: index, response: response, session: session.takeUnretainedValue())
    }

    /// A session's first request for a `{{baseURL}}` answer (and its first after a reload): built with its URL and kept.
    @inline(never)
    private func makeSessionResponse(slot: Int, contract index: Int, response: Int, session: SessionState) -> OpaquePointer {
        session.responses.response(
            generation: generation, slot: slot, release: { MHDResponse.destroy($0) },
            retire: { [weak self] response in
                guard let self else { return MHDResponse.destroy(response) }
                self.retire(response)
            }
        ) {
            make(contract: index, response: response, body: set.contracts[index].responses[response].template!.render(baseURL: sessionBaseURL(session)))
        }
    }

    private func sessionBaseURL(_ session: SessionState) -> String {
        baseURL.withLock { $0 } + "/s/" + session.id
    }

    /// A templated response filled in for one request (`AnswerRendering.render`), with this
    /// server's base URL; `body` is read only by `{{body…}}`. In a session, `{{baseURL}}` is the
    /// session's (`…/s/ID`), so a next-page link keeps the app in it, and `{{counter}}` counts its
    /// answers.
    func render(
        contract index: Int, response: Int, path: String, query: [QueryArgument], body requestBody: EchoBody = .none, session: SessionState? = nil
    ) -> GeneratedResponse {
        let slot = firstSlot[index] + response
        // A `{{baseURL}}`-only body outside a session was filled once: shared, not filled again.
        let filled = session == nil && kinds[slot] == .needsBaseURL && baseURLReady.load(ordering: .acquiring) ? baseURLBodies[slot] : nil
        return rendering.render(
            contract: index, response: response, baseURL: session.map(sessionBaseURL) ?? baseURL.withLock { $0 }, path: path, query: query,
            body: requestBody, counting: session?.answers ?? .process, filled: filled)
    }

    private func make(contract index: Int, response: Int, body: [UInt8]) -> OpaquePointer {
        let definition = set.contracts[index].responses[response]
        return MHDResponse.make(
            body: body, contentType: definition.contentType, headers: rendering.headers(contract: index, response: response), status: definition.status)
    }

    private func retire(_ response: OpaquePointer) {
        let freeNow = retired.withLock { retired in
            if !retired.destroyed { retired.responses.append(UInt(bitPattern: response)) }
            return retired.destroyed
        }
        if freeNow { MHDResponse.destroy(response) }
    }

    func destroyAll() {
        let late = retired.withLock { retired in
            retired.destroyed = true
            defer { retired.responses = [] }
            return retired.responses
        }
        for response in late { MHDResponse.destroy(OpaquePointer(bitPattern: response)!) }
        for slot in slots { if let slot { MHDResponse.destroy(slot) } }
        slots.deallocate()
        table.deallocate()
    }
}
