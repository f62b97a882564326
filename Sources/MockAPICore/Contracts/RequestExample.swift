/// A request that keeps its contract, written out: the path values, query, headers and JSON body
/// `mockapi verify-backend` sends to a real backend when the contract alone cannot supply them
/// (an id that exists there, a real token). `import` and `record` fill it from what they saw.
///
/// ```json
/// "example": {"path": {"projectId": 42}, "query": {"page": "2"}, "headers": {"Authorization": "token abc"},
///             "json": {"amount": 45, "reward_id": 9002}}
/// ```
package struct RequestExample: Sendable, Equatable {
    package var path: [String: String] = [:]
    /// In order; a key sent several times (an array, a repeated key) appears several times.
    package var query: [Pair] = []
    package var headers: [Pair] = []
    package var json: JSONValue?

    /// A header, or a query key and its value: the same two strings.
    package typealias Pair = HTTPField

    package init(path: [String: String] = [:], query: [Pair] = [], headers: [Pair] = [], json: JSONValue? = nil) {
        self.path = path
        self.query = query
        self.headers = headers
        self.json = json
    }
}
