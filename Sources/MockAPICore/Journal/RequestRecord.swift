/// One request as it was answered: what the journal stores and the request log prints, made
/// once on the request thread from values the request already holds, so making or copying it
/// copies references, never bytes. The path travels beside it (bytes for the journal, text for
/// the log): turning it into a String would cost an allocation per request even with no log.
package struct RequestRecord: Sendable {
    /// Milliseconds since 1970 when the request's headers arrived.
    package var receivedAt: Int64
    package var method: String
    /// Decoded pairs, re-encoded only when read (`JournalEntry.encodeQuery`).
    package var query: [QueryArgument]
    /// As received; the journal redacts when it writes them, the log when it formats them.
    package var headers: HeaderFields
    package var bodyBytes: Int
    package var parts: [ReceivedPart]
    /// Nil when no contract matched.
    package var contract: String?
    /// The named response served, when one was.
    package var response: String?
    /// 0 when no answer was sent (a fault, a client that left first).
    package var status: Int
    /// Why mockapi refused the request, in one line; nil when served.
    package var problem: String?

    package init(
        receivedAt: Int64 = 0, method: String = "GET", query: [QueryArgument] = [], headers: HeaderFields = [],
        bodyBytes: Int = 0, parts: [ReceivedPart] = [], contract: String? = nil, response: String? = nil, status: Int = 200,
        problem: String? = nil
    ) {
        self.receivedAt = receivedAt
        self.method = method
        self.query = query
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.contract = contract
        self.response = response
        self.status = status
        self.problem = problem
    }
}
