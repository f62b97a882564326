import DecodingDiagnostics
import Foundation
import MockAPICore
import MockAPIServer

extension ContractRunner {
    /// The request reached the contract the route claims, and the server found nothing wrong with it.
    func matchFailure(_ exchange: Exchange, contract: Contract) -> RouteResult.Failure? {
        let expected = "contract: \(contract.name), \(contract.request.method.rawValue) \(contract.request.path) (\(file(contract)))"
        func failure(_ problem: [String]) -> RouteResult.Failure {
            .init(check: .contract, message: (sentLines(exchange) + [expected] + problem).joined(separator: "\n"))
        }
        let body = exchange.problem
        // Why the claimed contract itself did not match, for the cases where another (or none) did.
        var whyNot: [String] = []
        let sentMethod = exchange.method
        if sentMethod != contract.request.method.rawValue {
            whyNot.append("          the contract expects \(contract.request.method.rawValue), the client sent \(sentMethod)")
        }
        if let reason = NearestContracts.explain(path: exchange.path, template: contract.request.path) {
            whyNot.append("          \(reason)")
        }
        switch (exchange.matchedContract, exchange.status) {
        case (contract.name, 400) where exchange.refusedByServer:
            return failure(["problem:  the server could not read the body: \(body?.detail ?? "malformed request")"])
        case (contract.name, 422) where exchange.refusedByServer:
            let violations = (body?.violations ?? []).map { "  \($0.location): \($0.message)" }
            return failure(["problem:  the request breaks the contract (\(violations.count) violation\(violations.count == 1 ? "" : "s")):"] + violations)
        case (contract.name, _):
            return nil
        case (let other?, _):
            let otherFile = set.contracts.first { $0.name == other }.map { " (\(file($0)))" } ?? ""
            return failure(["problem:  the request matched contract \"\(other)\"\(otherFile) instead"] + whyNot)
        case (nil, 405):
            return failure(["problem:  \(body?.error ?? "method not allowed")"] + whyNot)
        case (nil, _):
            let nearest = (body?.nearest ?? []).map { "  \($0.contract) (\($0.file)): \($0.reason ?? "")" }
            let error = body?.error ?? "no contract matched (status \(exchange.status))"
            return failure(["problem:  \(error)"] + whyNot + (nearest.isEmpty ? [] : ["nearest:"] + nearest))
        }
    }

    /// Every multipart part arrived as the client's body carried it: name, filename, content
    /// type, size and SHA-256, compared with what the server journaled.
    func uploadFailures(_ exchange: Exchange) -> [RouteResult.Failure] {
        guard !exchange.sentParts.isEmpty else { return [] }
        let received = exchange.journal?.parts ?? []
        var problems: [String] = []
        for sent in exchange.sentParts {
            guard let part = received.first(where: { $0.name == sent.name }) else {
                let names = received.map(\.name)
                problems.append("part \(sent.name): the server journaled no such part (parts: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
                continue
            }
            let receivedType = part.contentType.map(MediaType.essence)
            let sentType = sent.contentType.map(MediaType.essence)
            var differences: [String] = []
            if part.filename != sent.filename { differences.append("filename: sent \(sent.filename ?? "none"), received \(part.filename ?? "none")") }
            if receivedType != sentType { differences.append("content type: sent \(sentType ?? "none"), received \(receivedType ?? "none")") }
            if part.bytes != sent.bytes { differences.append("size: sent \(sent.bytes) bytes, received \(part.bytes)") }
            if part.sha256 != sent.sha256 { differences.append("sha256: sent \(sent.sha256), received \(part.sha256)") }
            if !differences.isEmpty { problems.append("part \"\(sent.name)\" did not arrive intact:"); problems += differences.map { "  " + $0 } }
        }
        guard !problems.isEmpty else { return [] }
        return [.init(check: .upload, message: (sentLines(exchange) + problems.enumerated().map { $0.offset == 0 ? "problem:  " + $0.element : "          " + $0.element }).joined(separator: "\n"))]
    }

    /// The response has the contract's status and decodes with the client's decoder; the
    /// decoded value, for the drift check.
    /// `how` says how the response came, when it is not simply the one asked for.
    func responseOutcome(
        _ exchange: Exchange, contract: Contract, index: Int, decoder: ResponseDecoder, how: String? = nil
    ) -> Result<Any?, RouteResult.Failure> {
        let definition = contract.responses[index]
        let response = "response \"\(definition.name)\"" + (how.map { " (\($0))" } ?? "")
        if exchange.status != definition.status {
            return .failure(.init(check: .status, message: "\(response): expected status \(definition.status), got \(exchange.status)"))
        }
        do {
            return .success(try decoder.decode(exchange.body))
        } catch {
            let failure: DecodingFailure
            switch error {
            case let error as DecodingError: failure = DecodingFailure(error, data: exchange.body, endpoint: "")
            case let described as DecodingFailure: failure = described
            default: failure = DecodingFailure(endpoint: "", path: "", message: "\(error)")
            }
            let place = failure.path.isEmpty ? "" : "\(failure.path): "
            return .failure(
                .init(check: .decoding, message: "\(response) does not decode into \(decoder.modelName):\n  \(source(of: definition, in: contract)): \(place)\(failure.message)"))
        }
    }

    /// Fixture keys the model never reads: the keys its decoder read (``KeyReads``) or, when
    /// that is not known, the keys of the decoded value re-encoded, compared with the body's.
    /// Null-valued keys are left out: an optional read as nil encodes as absent.
    func driftWarning(
        _ exchange: Exchange, value: Any, encode: (@Sendable (Any) throws -> Data)?, reads: KeyReads?, contract: Contract,
        index: Int, decoder: ResponseDecoder
    ) -> String? {
        guard let original = try? JSONParser.parse(Array(exchange.body)) else { return nil }
        let roundTrip = encode.flatMap { try? $0(value) }.flatMap { try? JSONParser.parse(Array($0)) }
        let unread: [String]
        if let reads {
            unread = KeyPaths.of(original).subtracting(reads.read).sorted()
        } else if let roundTrip {
            unread = KeyPaths.of(original).subtracting(KeyPaths.of(roundTrip)).sorted()
        } else {
            return nil
        }
        let misspelt = reads?.misspelt() ?? []
        let defaulted = roundTrip.map { DefaultedValues.of(original, model: $0) } ?? []
        guard !unread.isEmpty || !misspelt.isEmpty || !defaulted.isEmpty else { return nil }
        var found: [String] = []
        if !unread.isEmpty { found.append("keys \(decoder.modelName) never reads: \(unread.joined(separator: ", "))") }
        if !misspelt.isEmpty {
            found.append("keys \(decoder.modelName) asks for that the body lacks: \(misspelt.joined(separator: ", "))")
        }
        if !defaulted.isEmpty {
            let shown = defaulted.prefix(DefaultedValues.shown).joined(separator: ", ")
            let more = defaulted.count > DefaultedValues.shown ? " and \(defaulted.count - DefaultedValues.shown) more" : ""
            found.append(
                "values \(decoder.modelName) holds as empty where the body has one (is the key read under another name, "
                    + "with a default?): \(shown)\(more)")
        }
        return "\(source(of: contract.responses[index], in: contract)): \(found.joined(separator: "; "))"
    }

    private func source(of response: ResponseDefinition, in contract: Contract) -> String {
        response.fixture.map { "\(set.fixturesDirectory)/\($0)" } ?? "\(file(contract)) responses.\(response.name).body"
    }

    private func sentLines(_ exchange: Exchange) -> [String] {
        ["sent:     \(exchange.sent.method) \(exchange.sent.url)"] + exchange.sent.parts.map { "          \($0)" }
    }
}

/// Values the model holds as empty (0, false, "", []) where the body has a non-empty one, at the
/// same path: what a hand-written `init(from:)` leaves behind when it reads a key under a name
/// the body does not use and falls back to a default (`?? 0`), then encodes under the right one,
/// so the key-based drift above sees the key as read. Only empty values count: a model may
/// legitimately hold a value in another form (a date in another epoch), never a lost one.
enum DefaultedValues {
    static let shown = 5

    static func of(_ body: JSONValue, model: JSONValue, path: String = "") -> [String] {
        switch (body, model) {
        case (.object(let members), .object(let modelMembers)):
            return members.members.flatMap { key, child in
                modelMembers[key].map { of(child, model: $0, path: path.isEmpty ? key : "\(path).\(key)") } ?? []
            }
        case (.array(let elements), .array(let modelElements)) where !elements.isEmpty && !modelElements.isEmpty:
            return zip(elements, modelElements).enumerated().flatMap { offset, pair in of(pair.0, model: pair.1, path: "\(path)[\(offset)]") }
        default:
            guard !isEmpty(body), isEmpty(model), sameKind(body, model) else { return [] }
            return ["\(path) (body \(abbreviated(body)), model \(model.serialized))"]
        }
    }

    private static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .int(let number): number == 0
        case .double(let number): number == 0
        case .bool(let flag): !flag
        case .string(let text): text.isEmpty
        case .array(let elements): elements.isEmpty
        default: false
        }
    }

    private static func sameKind(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double), (.bool, .bool), (.string, .string), (.array, .array): true
        default: false
        }
    }

    private static func abbreviated(_ value: JSONValue) -> String {
        if case .array(let elements) = value { return "\(elements.count) element\(elements.count == 1 ? "" : "s")" }
        let text = value.serialized
        return text.count > 40 ? String(text.prefix(37)) + "..." : text
    }
}

/// Every non-null key path in a JSON document, arrays folded: `projects[].creator.id`.
enum KeyPaths {
    static func of(_ value: JSONValue, prefix: String = "") -> Set<String> {
        switch value {
        case .object(let object):
            var paths: Set<String> = []
            for (key, child) in object.members {
                if case .null = child { continue }
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                paths.formUnion(of(child, prefix: path))
            }
            return paths
        case .array(let elements):
            return elements.reduce(into: Set<String>()) { $0.formUnion(of($1, prefix: prefix + "[]")) }
        default:
            return []
        }
    }
}
