import DecodingDiagnostics
import Foundation
import MockAPICore
import MockAPIServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OperationRunner {
    /// Calls the operation once plainly, then once for every response of its contract the plain
    /// call did not get, judging each call as it returns. A call whose request missed or broke the
    /// contract ends the operation: the others would fail the same way.
    func verify(
        _ check: OperationCheck, contract: Contract, baseURL: URL, source: any JournalSource, cursor: JournalCursor,
        verifier: ContractRunner, into result: inout RouteResult
    ) async {
        var reached: Set<String> = []
        do {
            try await source.resetScenarios()
        } catch {
            result.failures.append(.init(check: .transport, message: "the server's scenarios could not be reset: \(error)"))
            return
        }
        let asks: [String?] = [nil] + contract.responses.map(\.name)
        for asked in asks {
            if let asked, reached.contains(asked) { continue }
            let call = OperationCall(serverURL: baseURL, response: asked)
            var output: (any Sendable)?
            var thrown: (any Error)?
            do { output = try await check.call(call) } catch { thrown = error }
            let page: JournalPage
            do {
                page = try await source.page(JournalQuery(since: cursor.lastID))
            } catch {
                result.failures.append(.init(check: .transport, message: "the server's journal could not be read: \(error)"))
                return
            }
            cursor.lastID = max(cursor.lastID, page.lastID)
            // The newest entry with the Prefer the call carried (a retrying transport may send it twice).
            let prefer = call.headerFields["Prefer"]
            let entry = page.entries.last { $0.headers.value(for: "Prefer") == prefer }
            let recorded = call.snapshot
            let asking = asked.map { "response \"\($0)\" (asked for with Prefer: example=\($0))" } ?? "the plain call"
            guard var exchange = exchange(recorded, entry: entry, evicted: page.evicted, asked: asked, baseURL: baseURL) else {
                let why = thrown.map { ": the generated client threw: \(Self.described($0, body: Data()).message)" } ?? ""
                let hint = prefer == nil ? "" : " (or it reached it without the Prefer header in OperationCall.headerFields)"
                result.failures.append(.init(check: .transport, message: "\(asking) reached no mock server\(hint)\(why)"))
                return
            }
            if asked == nil { result.request = exchange.sent }
            if entry == nil, page.evicted > 0 {
                result.failures.append(
                    .init(check: .journal, message: "the server evicted \(page.evicted) journaled requests before the runner read them: raise serve --journal-bytes"))
            }
            if let failure = refusalFailure(exchange, contract: contract, verifier: verifier) ?? verifier.matchFailure(exchange, contract: contract) {
                result.failures.append(failure)
                return
            }
            if asked == nil {
                result.failures += verifier.uploadFailures(exchange) + bodySizeFailures(exchange)
            }
            let served = entry?.response ?? asked ?? "default"
            reached.insert(served)
            exchange.askedFor = served
            let status = exchange.status
            let fixture = contract.responses.first { $0.name == served }?.fixture.map { "\(set.fixturesDirectory)/\($0)" }
            let answer = "\(asked == nil ? "the plain call's answer, " : "")response \"\(served)\" (status \(status)\(fixture.map { ", \($0)" } ?? ""))"
            if let thrown {
                let failure = Self.described(thrown, body: exchange.body)
                let place = failure.path.isEmpty ? "" : "\(failure.path): "
                result.failures.append(.init(check: .decoding, message: "\(answer): the generated client threw: \(place)\(failure.message)"))
            } else if let output, let undocumented = Self.undocumentedStatus(of: output) {
                result.failures.append(
                    .init(
                        check: .status,
                        message:
                            "\(answer): the generated client returned .undocumented(statusCode: \(undocumented)): the document declares no status \(undocumented) (nor a default) for \(check.operationID)"
                    ))
            }
        }
    }

    /// What was sent and answered, from the client's record (its middleware) and the journal;
    /// nil when neither saw the call.
    private func exchange(_ recorded: OperationCall.Recorded, entry: JournalEntry?, evicted: Int, asked: String?, baseURL: URL) -> Exchange? {
        guard let request = recorded.request ?? entry.flatMap({ journaled($0, baseURL: baseURL) }) else { return nil }
        let parts = ContractRunner.parts(of: request)
        var notes = parts.map { part in
            "part \(part.name): \(part.filename ?? "no filename"), \(part.contentType ?? "no content type"), \(part.bytes) bytes, sha256 \(part.sha256)"
        }
        if let asked { notes.append("asking for response \"\(asked)\" (Prefer: example=\(asked))") }
        return Exchange(
            sent: .init(method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "", parts: notes),
            request: request, sentParts: parts, status: recorded.response?.statusCode ?? entry?.status ?? 0,
            matchedContract: recorded.response.map { $0.value(forHTTPHeaderField: Responder.contractHeader) } ?? entry?.contract,
            body: recorded.body, journal: entry, journalEvicted: evicted)
    }

    /// The contract's own refusal (`"refusal"`: an imported contract answers a request that breaks
    /// it with the document's 400 or 401): a documented status the generated client decodes
    /// happily, so the journal's problem is what shows the request was wrong.
    private func refusalFailure(_ exchange: Exchange, contract: Contract, verifier: ContractRunner) -> RouteResult.Failure? {
        guard let entry = exchange.journal, entry.contract == contract.name, let problem = entry.problem,
            exchange.problem?.kind == nil // mockapi's own problem document: matchFailure reads its violations
        else { return nil }
        let answer = entry.response.map { "its refusal \"\($0)\" (\(entry.status))" } ?? "\(entry.status)"
        let lines =
            ["sent:     \(exchange.sent.method) \(exchange.sent.url)"]
            + ["contract: \(contract.name), \(contract.request.method.rawValue) \(contract.request.path) (\(verifier.file(contract)))"]
            + ["problem:  the request breaks the contract; the server answered with \(answer):"]
            + ["  \(problem)"]
        return .init(check: .contract, message: lines.joined(separator: "\n"))
    }

    /// The request as the journal has it, for a client whose middleware recorded nothing.
    private func journaled(_ entry: JournalEntry, baseURL: URL) -> URLRequest? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedPath = entry.path
        components.percentEncodedQuery = entry.query.isEmpty ? nil : entry.query
        guard let url = components.url else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = entry.method
        return request
    }

    /// A body that is not multipart (an `application/octet-stream` upload, JSON) arrived whole.
    private func bodySizeFailures(_ exchange: Exchange) -> [RouteResult.Failure] {
        guard exchange.sentParts.isEmpty, let body = exchange.request.httpBody, let received = exchange.journal?.bodyBytes,
            received != body.count
        else { return [] }
        return [
            .init(
                check: .upload,
                message: "sent:     \(exchange.sent.method) \(exchange.sent.url)\nproblem:  the body did not arrive whole: sent \(body.count) bytes, the server received \(received)")
        ]
    }

    /// The status of a generated `Output` that is the `undocumented` case; nil for any other
    /// value. Read by reflection: the generated enum's type is the client's, not the runner's.
    static func undocumentedStatus(of output: any Sendable) -> Int? {
        let mirror = Mirror(reflecting: output)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first, payload.label == "undocumented" else { return nil }
        if let status = payload.value as? Int { return status }
        return Mirror(reflecting: payload.value).children.first { $0.label == "statusCode" }?.value as? Int ?? 0
    }

    /// An error the generated client threw, unwrapped down to its cause (`ClientError`'s
    /// `underlyingError`): a `DecodingError` is told by its JSON path, as the runner tells it.
    static func described(_ error: any Error, body: Data) -> DecodingFailure {
        var current = error
        var causes: [String] = []
        for _ in 0..<8 {
            let children = Mirror(reflecting: current).children
            if let cause = children.first(where: { $0.label == "causeDescription" })?.value as? String, cause != "Unknown" {
                causes.append(cause)
            }
            guard let inner = children.first(where: { $0.label == "underlyingError" })?.value as? any Error else { break }
            current = inner
        }
        // A runtime error's cause often says what its description says: said once.
        if causes.last == "\(current)" { causes.removeLast() }
        let prefix = causes.isEmpty ? "" : causes.joined(separator: ": ") + ": "
        if let decoding = current as? DecodingError {
            let failure = DecodingFailure(decoding, data: body, endpoint: "")
            return DecodingFailure(endpoint: "", path: failure.path, message: prefix + failure.message)
        }
        return DecodingFailure(endpoint: "", path: "", message: prefix + "\(current)")
    }
}
