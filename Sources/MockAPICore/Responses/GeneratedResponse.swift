/// A response built for one request (errors, admin answers), as opposed to a prepared fixture.
package struct GeneratedResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    package var headers: [HTTPField]
    /// Why mockapi refused the request, in one line, for the journal; nil for admin answers.
    package var problem: String?
    /// A contract's response whose body has placeholders (a contract's own refusal): the server,
    /// which knows its base URL, fills them for this request as it does for the response served.
    package var placeholdersOf: (contract: Int, response: Int)?
    /// What the head says of the body's length, when it is not `body`'s (a proxied answer).
    package var framing: Framing = .body

    /// How an answer's head states its length.
    package enum Framing: Sendable, Equatable {
        /// `Content-Length` of `body`: every answer the mock makes itself.
        case body
        /// `Content-Length: n` and no body sent: a backend's answer to `HEAD`, or its 304, as it stated them.
        case stated(Int)
        /// No length at all: a `HEAD` or 304 whose backend stated none (the connection closes after it).
        case unstated
    }

    package init(
        status: Int, contentType: String = "application/json", body: [UInt8], headers: [HTTPField] = [],
        problem: String? = nil
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
        self.problem = problem
    }

    package init(
        status: Int, contentType: String = "application/json", json: JSONValue, headers: [HTTPField] = [],
        problem: String? = nil
    ) {
        self.init(status: status, contentType: contentType, body: Array((json.prettySerialized + "\n").utf8), headers: headers, problem: problem)
    }
}
