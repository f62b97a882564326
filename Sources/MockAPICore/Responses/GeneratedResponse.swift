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
