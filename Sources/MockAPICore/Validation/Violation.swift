/// One way a request breaks its contract, e.g. `query.cursor: expected int, found "abc"`.
public struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the request: `query.cursor`, `header.Authorization`, `body.amount`, `part.image`, `body`, `prefer`.
    public var location: String
    public var message: String

    public init(_ location: String, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
