/// One way a request breaks its contract, e.g. `query.cursor: expected int, found "abc"`.
package struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the request: `query.cursor`, `header.Authorization`, `body.amount`, `part.image`, `body`, `prefer`.
    package var location: String
    package var message: String

    package init(_ location: String, _ message: String) {
        self.location = location
        self.message = message
    }

    package var description: String { "\(location): \(message)" }
}
