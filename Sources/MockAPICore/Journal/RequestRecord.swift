/// One request as it was answered, owned, with Strings: what the request log keeps until its
/// queue formats the line, and what tests journal. The fields are `JournaledRequest`'s, the form
/// the journal borrows on the request path (see there for each), except that the contract's and
/// response's names are text here and the path travels beside it (bytes for the journal, text
/// for the log): turning it into a String would cost an allocation per request even with no log.
package struct RequestRecord: Sendable {
    package var receivedAt: Int64
    package var method: String
    package var query: [QueryArgument]
    package var headers: HeaderFields
    package var bodyBytes: Int
    package var parts: [ReceivedPart]
    package var contract: String?
    package var response: String?
    package var status: Int
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

    /// This record lent as the journal takes it, its path `path`.
    package func withJournaledRequest<Result>(
        path: UnsafeRawBufferPointer, threadSlot: Int = ThreadSlot.current, _ body: (borrowing JournaledRequest) -> Result
    ) -> Result {
        func withBytes<Inner>(of text: String?, _ body: (UnsafeRawBufferPointer?) -> Inner) -> Inner {
            guard var text else { return body(nil) }
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
        return withBytes(of: contract) { contract in
            withBytes(of: response) { response in
                body(
                    JournaledRequest(
                        receivedAt: receivedAt, method: method, path: path, query: query, headers: headers, bodyBytes: bodyBytes,
                        parts: parts, contract: contract, response: response, status: status, problem: problem, threadSlot: threadSlot))
            }
        }
    }
}

extension RequestJournal {
    /// Records `record`, its path `path` (the request path's bytes).
    package func record(_ record: RequestRecord, path: UnsafeRawBufferPointer) {
        record.withJournaledRequest(path: path) { self.record($0) }
    }
}
