/// CORS for browser clients (`mockapi serve --cors`): preflights answered from the route table,
/// and headers that let a page read every answer.
extension Responder {
    /// On every answer when CORS is on (prepared ones get them once, at start).
    public static let corsHeaders: [(name: String, value: String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Expose-Headers", "Mockapi-Contract, Mockapi-Journal-Last-Id"),
    ]

    /// The 204 for a preflight (`OPTIONS` with `Access-Control-Request-Method`): the methods the
    /// contracts allow on that path, the headers the page asked for; nil when it is not one.
    public func preflight(method: String, path: UnsafeBufferPointer<UInt8>, headers: HeaderFields) -> GeneratedResponse? {
        guard method == "OPTIONS", headers.value(for: "Access-Control-Request-Method") != nil else { return nil }
        var allowed = HTTPMethod.allCases.filter { if case .found = set.routes.match(method: $0, path: path) { true } else { false } }
        if allowed.isEmpty { return nil } // no contract on that path: the usual 404 explains why
        if !allowed.contains(.OPTIONS) { allowed.append(.OPTIONS) }
        // The server adds `corsHeaders` to it, as to every answer.
        var answer: [(name: String, value: String)] = [
            ("Access-Control-Allow-Methods", allowed.map(\.rawValue).joined(separator: ", ")),
            ("Access-Control-Max-Age", "600"),
        ]
        if let requested = headers.value(for: "Access-Control-Request-Headers") { answer.append(("Access-Control-Allow-Headers", requested)) }
        return GeneratedResponse(status: 204, contentType: "", body: [], headers: answer)
    }
}
