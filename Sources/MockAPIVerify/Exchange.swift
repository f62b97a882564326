import Foundation
import MockAPICore
import MockAPIServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request the runner sent, what came back, and what the server journaled for it.
struct Exchange {
    var sent: RouteResult.SentRequest
    var request: URLRequest
    /// The multipart parts the client's body carried, read back from the bytes it built.
    var sentParts: [ReceivedPart]
    var status: Int
    var matchedContract: String?
    var body: Data
    var journal: JournalEntry?
    /// Requests after the runner's cursor the server evicted before the runner read its journal
    /// (`--journal-bytes` or `--journal-size` too small for the traffic it gets).
    var journalEvicted = 0
    /// The response the runner asked for (`default`: the plain request).
    var askedFor = "default"

    /// The body read as mockapi's refusal (problem document, 404 or 405 body), when it reads as one.
    var problem: ProblemDocument? { ProblemDocument(body: body) }

    var method: String { sent.method }
    var path: String { request.url?.path ?? "/" }

    /// True when mockapi itself refused the request (the journal holds its problem), as opposed
    /// to serving a contract response that happens to be a 4xx. Without a journal entry, the
    /// body's problem type says it.
    var refusedByServer: Bool {
        if let journal { return journal.problem != nil }
        return problem?.kind != nil
    }
}

/// Where the runner is in the server's journal: every exchange reads only what came after it.
final class JournalCursor: @unchecked Sendable {
    // Why unchecked: one run uses it from one task at a time, in order.
    var lastID: Int
    init(_ lastID: Int) { self.lastID = lastID }
}

extension ContractRunner {
    /// Sends the route's own request, asking for the named response when it is not `default`
    /// (or when `forced`: the plain request was answered with another).
    func send(_ check: RouteCheck, response name: String, baseURL: URL, forced: Bool = false) async throws -> Exchange {
        var request = try check.request(baseURL)
        let asking = name != "default" || forced
        if asking { request.setValue("example=\(name)", forHTTPHeaderField: "Prefer") }
        let sentParts = Self.parts(of: request)
        var notes = sentParts.map { part in
            "part \(part.name): \(part.filename ?? "no filename"), \(part.contentType ?? "no content type"), \(part.bytes) bytes, sha256 \(part.sha256)"
        }
        if asking { notes.append("asking for response \"\(name)\" (Prefer: example=\(name))") }
        let (data, response) = try await options.transport.send(request)
        let method = request.httpMethod ?? "GET"
        return Exchange(
            sent: .init(method: method, url: request.url?.absoluteString ?? "", parts: notes),
            request: request, sentParts: sentParts, status: response.statusCode,
            matchedContract: response.value(forHTTPHeaderField: Responder.contractHeader), body: data, askedFor: name)
    }

    /// Gives each of a check's exchanges (one method and path) its journal entry, in one read
    /// that the server filters: the newest entry after the cursor with the `Prefer` the exchange
    /// sent (a retrying transport may have sent it more than once), or, when the transport
    /// changed what was sent, the entry in the same position.
    func attachJournal(to exchanges: inout [Exchange], source: any JournalSource, cursor: JournalCursor) async throws {
        guard let first = exchanges.first else { return }
        let since = cursor.lastID
        var page = try await source.page(JournalQuery(since: since, method: first.method, path: first.path))
        if page.entries.isEmpty {
            // The path arrived other than `URL.path` spells it (a transport that rewrites it): read what came after the cursor.
            page = try await source.page(JournalQuery(since: since))
        }
        cursor.lastID = max(cursor.lastID, page.lastID)
        for index in exchanges.indices {
            let prefer = exchanges[index].request.value(forHTTPHeaderField: "Prefer")
            let sameRequest = page.entries.last { $0.headers.value(for: "Prefer") == prefer }
            exchanges[index].journal = sameRequest ?? (page.entries.count == exchanges.count ? page.entries[index] : nil)
            exchanges[index].journalEvicted = page.evicted
        }
    }

    /// A multipart body's parts as the server would journal them; none for other bodies.
    static func parts(of request: URLRequest) -> [ReceivedPart] {
        guard let contentType = request.value(forHTTPHeaderField: "Content-Type"),
            MediaType.essence(of: contentType) == "multipart/form-data",
            let boundary = MediaType.parameter("boundary", in: contentType),
            let body = request.httpBody,
            var parser = try? MultipartParser(boundary: boundary)
        else { return [] }
        var parts: [ReceivedPart] = []
        var current: (headers: MultipartParser.PartHeaders, data: Data)?
        func collect(_ event: MultipartParser.Event) {
            switch event {
            case .begin(let headers): current = (headers, Data())
            case .data(let chunk): current?.data.append(contentsOf: chunk)
            case .end:
                if let part = current {
                    parts.append(
                        ReceivedPart(
                            name: part.headers.name, filename: part.headers.filename, contentType: part.headers.contentType,
                            bytes: part.data.count, sha256: SHA256.hex(of: part.data)))
                }
                current = nil
            }
        }
        let parsed: Bool = body.withUnsafeBytes { bytes in
            do {
                try parser.feed(bytes, collect)
                try parser.finish(collect)
                return true
            } catch {
                return false
            }
        }
        return parsed ? parts : []
    }
}
