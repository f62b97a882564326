import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore
import MockAPIServer

/// One request the runner sent, what came back, and what the server journaled for it.
struct Exchange {
    var sent: RouteResult.SentRequest
    var request: URLRequest
    /// The multipart parts the client's body carried, read back from the bytes it built.
    var sentParts: [ReceivedPart]
    var status: Int
    var matchedContract: String?
    var body: Data
    var journal: [String: Any]?
    /// Requests after the runner's cursor the server evicted before the runner read its journal
    /// (`--journal-bytes` or `--journal-size` too small for the traffic it gets).
    var journalEvicted = 0

    var bodyJSON: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    var method: String { sent.method }
    var path: String { request.url?.path ?? "/" }

    /// True when mockapi itself refused the request (its problem documents), as opposed to
    /// serving a contract response that happens to be a 4xx.
    var refusedByServer: Bool {
        if let journal { return journal["response"] is NSNull || journal["response"] == nil }
        return (bodyJSON?["type"] as? String)?.hasPrefix("urn:mockapi:") == true
    }
}

/// Where the runner is in the server's journal: every exchange reads only what came after it.
final class JournalCursor: @unchecked Sendable {
    // Why unchecked: one run uses it from one task at a time, in order.
    var lastID: Int
    init(_ lastID: Int) { self.lastID = lastID }
}

extension ContractRunner {
    /// Sends the route's own request, asking for the named response when it is not `default`.
    func send(_ check: RouteCheck, response name: String, baseURL: URL, admin: AdminClient, cursor: JournalCursor) async throws -> Exchange {
        var request = try check.request(baseURL)
        if name != "default" { request.setValue("example=\(name)", forHTTPHeaderField: "Prefer") }
        let sentParts = Self.parts(of: request)
        var notes = sentParts.map { part in
            "part \(part.name): \(part.filename ?? "no filename"), \(part.contentType ?? "no content type"), \(part.bytes) bytes, sha256 \(part.sha256)"
        }
        if name != "default" { notes.append("asking for response \"\(name)\" (Prefer: example=\(name))") }
        let (data, response) = try await options.transport.send(request)
        let method = request.httpMethod ?? "GET"
        let journaled = try await journalEntry(method: method, path: request.url?.path ?? "/", admin: admin, cursor: cursor)
        var exchange = Exchange(sent: .init(method: method, url: request.url?.absoluteString ?? "", parts: notes),
                                request: request, sentParts: sentParts, status: response.statusCode,
                                matchedContract: response.value(forHTTPHeaderField: Responder.contractHeader), body: data,
                                journal: journaled.entry)
        exchange.journalEvicted = journaled.evicted
        return exchange
    }

    /// The journal entry of the request just sent: the newest one after the cursor with its
    /// method and path (a retrying transport may have sent it more than once).
    /// With it, how many requests after the cursor the server evicted before this read.
    private func journalEntry(method: String, path: String, admin: AdminClient, cursor: JournalCursor) async throws
        -> (entry: [String: Any]?, evicted: Int) {
        let page = try await admin.journal(since: cursor.lastID)
        cursor.lastID = max(cursor.lastID, page.lastID)
        let sameRequest = page.entries.filter { ($0["method"] as? String) == method && ($0["path"] as? String) == path }
        return (sameRequest.last ?? (page.entries.count == 1 ? page.entries.last : nil), page.evicted)
    }

    /// A multipart body's parts as the server would journal them; none for other bodies.
    static func parts(of request: URLRequest) -> [ReceivedPart] {
        guard let contentType = request.value(forHTTPHeaderField: "Content-Type"),
              MediaType.essence(of: contentType) == "multipart/form-data",
              let boundary = MediaType.parameter("boundary", in: contentType),
              let body = request.httpBody,
              var parser = try? MultipartParser(boundary: boundary) else { return [] }
        var parts: [ReceivedPart] = []
        var current: (headers: MultipartParser.PartHeaders, data: Data)?
        func collect(_ event: MultipartParser.Event) {
            switch event {
            case .begin(let headers): current = (headers, Data())
            case .data(let chunk): current?.data.append(contentsOf: chunk)
            case .end:
                if let part = current {
                    parts.append(ReceivedPart(name: part.headers.name, filename: part.headers.filename, contentType: part.headers.contentType,
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
