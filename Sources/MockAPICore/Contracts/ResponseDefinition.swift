/// A named response a contract can give.
package struct ResponseDefinition: Sendable {
    package var name: String
    package var status: Int
    package var body: [UInt8]
    /// Nil for an empty body.
    package var contentType: String?
    /// Fixture path relative to the fixtures folder, when the body came from one.
    package var fixture: String?
    package var headers: [HTTPField] = []
    /// Query (and JSON body) values that select this response automatically.
    package var when: RequestMatch?
    /// Placeholders in the body (`{{baseURL}}`, `{{path.id}}`, `{{query.page}}`); nil for most.
    package var template: ResponseTemplate?
    /// How long the answer waits; nil for at once (or the server's `--delay`).
    package var delay: Latency?
    /// A broken answer instead of this one, on purpose.
    package var fault: Fault?
    /// The contract's `schema` for this response's body: every answer it allows, not only the fixture.
    package var shape: JSONValueSchema?
}
