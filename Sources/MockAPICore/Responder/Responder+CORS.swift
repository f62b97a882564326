/// CORS for browser clients (`mockapi serve --cors`): preflights answered from the route table,
/// and headers that let a page read every answer.
extension Responder {
    /// On every answer when CORS is on (prepared ones get them once, at start).
    package static let corsHeaders: [HTTPField] = [
        HTTPField("Access-Control-Allow-Origin", "*"),
        HTTPField(
            "Access-Control-Expose-Headers",
            [contractHeader, problemHeader, journalLastIDHeader, RequestJournal.firstIDHeader, RequestJournal.evictedHeader]
                .joined(separator: ", ")
        ),
    ]

    /// The 204 for a preflight (`OPTIONS` with `Access-Control-Request-Method`): the methods the
    /// contracts allow on that path, the headers the page asked for; nil when it is not one.
    package func preflight(method: String, path: UnsafeBufferPointer<UInt8>, headers: HeaderFields) -> GeneratedResponse? {
        guard method == "OPTIONS", headers.value(for: "Access-Control-Request-Method") != nil else { return nil }
        var allowed = RequestMethod.allCases.filter { if case .found = set.routes.match(method: $0, path: path) { true } else { false } }
        if allowed.isEmpty { return nil } // no contract on that path: the usual 404 explains why
        if !allowed.contains(.OPTIONS) { allowed.append(.OPTIONS) }
        // The server adds `corsHeaders` to it, as to every answer.
        var answer: [HTTPField] = [
            HTTPField("Access-Control-Allow-Methods", allowed.map(\.rawValue).joined(separator: ", ")),
            HTTPField("Access-Control-Max-Age", "600"),
        ]
        if let requested = headers.value(for: "Access-Control-Request-Headers") {
            answer.append(HTTPField("Access-Control-Allow-Headers", Self.allowedHeaders(requested)))
        }
        return GeneratedResponse(status: 204, contentType: "", body: [], headers: answer)
    }

    /// The longest `Access-Control-Request-Headers` echoed as it is. A longer list gets the
    /// wildcard instead: echoed, a list of 16 KiB did not fit beside the request in the
    /// connection's 32 KiB of memory, and MHD 0.9.75 then closed without an answer.
    static let echoedRequestHeadersLimit = 4 * 1024

    /// The list as asked for, or `*` for a long one (plus `Authorization`, which the wildcard
    /// does not cover; no credentials ride on `Allow-Origin: *` answers, so `*` is enough otherwise).
    static func allowedHeaders(_ requested: String) -> String {
        guard requested.utf8.count > echoedRequestHeadersLimit else { return requested }
        let asksAuthorization = requested.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == "authorization" }
        return asksAuthorization ? "*, Authorization" : "*"
    }
}
