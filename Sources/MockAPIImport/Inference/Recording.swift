package import Foundation
package import MockAPICore
import Synchronization

/// What `mockapi record` has seen, and the set it writes from it: the exchanges, in order, turned
/// into contracts and fixtures by the same inference `import har` uses, written all or nothing.
package final class Recording: Sendable {
    package let output: URL
    private let state = Mutex<(exchanges: [RecordedExchange], failed: Int, saves: Int, bytes: Int, dropped: Int, cut: [String])>(
        ([], 0, 0, 0, 0, []))
    /// What a recording holds at most: past either, exchanges are counted, not kept.
    package static let maxExchanges = 20_000
    package static let maxBytes = 512 * 1024 * 1024
    /// Replace the output's folders even on the first save (`--force`).
    private let force: Bool

    /// The target as given (`https://host/api`) and its origin (`https://host`): the app sends
    /// `/v1/x` to the recorder, which is what the contracts must say.
    private let target: String
    private let origin: String
    /// Which request values are credentials (`--redact-key` adds to the standard ones).
    private let credentials: CredentialKeys

    package init(output: URL, force: Bool, target: String, credentials: CredentialKeys = .standard) {
        self.output = output
        self.credentials = credentials
        self.force = force
        self.target = target
        let components = URLComponents(string: target)
        origin = "\(components?.scheme ?? "http")://\(components?.host ?? "")\(components?.port.map { ":\($0)" } ?? "")"
    }

    /// Counts a request the target never answered: it is left out of the set.
    package func addUnanswered() {
        state.withLock { $0.failed += 1 }
    }

    /// Keeps an answered exchange, its URL as the recorder forwarded it (the target's, prefix
    /// included): the contracts say it as the app sent it. `cutFrom`: the answer body's whole
    /// length when `responseBody` holds only its first bytes (the save names it).
    package func add(_ exchange: RecordedExchange, cutFrom wholeLength: Int? = nil) {
        var recorded = exchange.decodingContent(bodyIsDecoded: false)
        if exchange.url.hasPrefix(target) { recorded.url = origin + exchange.url.dropFirst(target.count) }
        let size = recorded.requestBody.count + recorded.responseBody.count
        state.withLock { state in
            guard state.exchanges.count < Self.maxExchanges, state.bytes + size <= Self.maxBytes else {
                state.dropped += 1
                return
            }
            state.bytes += size
            state.exchanges.append(recorded)
            if let wholeLength {
                state.cut.append("\(recorded.method) \(recorded.url.dropFirst(origin.count)) (\(wholeLength) bytes, \(recorded.responseBody.count) kept)")
            }
        }
    }

    package var count: Int { state.withLock { $0.exchanges.count } }

    /// Writes the set (replacing what an earlier save wrote); a summary line, or why not.
    package func save() -> Result<String, ImportError> {
        let (exchanges, failed, saves, dropped, cut) = state.withLock { ($0.exchanges, $0.failed, $0.saves, $0.dropped, $0.cut) }
        guard !exchanges.isEmpty else { return .failure(ImportError("nothing recorded yet")) }
        let set = TrafficInference(source: "mockapi record", baseURLs: [target], credentials: credentials).infer(exchanges)
        do {
            try ContractWriter(output: output, replace: force || saves > 0).write(set)
        } catch {
            return .failure(error)
        }
        state.withLock { $0.saves += 1 }
        let unanswered = failed == 0 ? "" : "; \(failed) unanswered \(failed == 1 ? "request" : "requests") left out"
        let full = dropped == 0 ? "" : "; \(dropped) more not kept (a recording keeps \(Self.maxExchanges) exchanges, \(Self.maxBytes / 1_048_576) MiB of bodies)"
        let shown = cut.prefix(5).joined(separator: ", ") + (cut.count > 5 ? ", …" : "")
        let cutShort =
            cut.isEmpty ? "" : "; \(cut.count) answer \(cut.count == 1 ? "body" : "bodies") cut short in the fixtures (--max-recorded-body-bytes): \(shown)"
        return .success(
            "\(exchanges.count) exchanges: \(set.contracts.count) contracts, \(set.responseCount) responses, "
                + "\(set.fixtures.count) fixtures written to \(output.path)\(unanswered)\(full)\(cutShort)")
    }

    /// `POST /__mockapi/record/save`.
    package func saveResponse() -> GeneratedResponse {
        switch save() {
        case .success(let summary): GeneratedResponse(status: 200, json: ["saved": .string(summary)])
        case .failure(let error): GeneratedResponse(status: 409, json: ["error": .string(error.description)])
        }
    }
}
