/// A response body that did not decode: which call, where in the JSON, and what was wrong.
///
/// Its description reads like a compiler error:
/// `GET /v1/activities: [3].project.creator.id: expected Int, found String`.
public struct DecodingFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call whose body failed, `METHOD /path?query`.
    public var endpoint: String
    /// The JSON path, keys as they appear in the body: `[3].project.creator.id`; empty for the root.
    public var path: String
    /// What was wrong: `expected Int, found String`, `missing key`, `invalid JSON`.
    public var message: String

    /// Creates a failure.
    public init(endpoint: String, path: String, message: String) {
        self.endpoint = endpoint
        self.path = path
        self.message = message
    }

    /// `endpoint: path: message`, leaving out empty parts.
    public var description: String {
        [endpoint, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
