/// One request as `RequestJournal.record` copies it: every field borrowed from what the server
/// already holds, the path and the contract's and response's names as bytes (`NameBytes`), so
/// journaling a request makes no String, no record of its own, and no retain or release (making
/// a `RequestRecord` first cost a retain and a release per field). Passed `borrowing`; nothing in
/// it outlives the call, and the journal copies only bytes. `RequestRecord` is the owned form,
/// with Strings, that the request log keeps (`RequestRecord.withJournaledRequest` lends one as this).
package struct JournaledRequest {
    /// Milliseconds since 1970 when the request's headers arrived.
    package var receivedAt: Int64
    package var method: String
    /// The request path's bytes, as received.
    package var path: UnsafeRawBufferPointer
    /// Decoded pairs, redacted when written (`HeaderRedaction.journaledQuery`), re-encoded when read.
    package var query: [QueryArgument]
    /// As received; redacted and cut when written (`HeaderFields.forJournal`).
    package var headers: HeaderFields
    package var bodyBytes: Int
    package var parts: [ReceivedPart]
    /// The contract's name, nil when none matched.
    package var contract: UnsafeRawBufferPointer?
    /// The named response served, when one was.
    package var response: UnsafeRawBufferPointer?
    /// 0 when no answer was sent (a fault, a client that left first).
    package var status: Int
    /// Why mockapi refused the request, in one line; nil when served.
    package var problem: String?
    /// Picks the journal's shard: the server passes the one it read when the request began.
    package var threadSlot: Int

    package init(
        receivedAt: Int64, method: String, path: UnsafeRawBufferPointer, query: [QueryArgument], headers: HeaderFields,
        bodyBytes: Int, parts: [ReceivedPart], contract: UnsafeRawBufferPointer?, response: UnsafeRawBufferPointer?, status: Int,
        problem: String?, threadSlot: Int = ThreadSlot.current
    ) {
        self.receivedAt = receivedAt
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.contract = contract
        self.response = response
        self.status = status
        self.problem = problem
        self.threadSlot = threadSlot
    }
}
