/// A named response a contract can give.
public struct ResponseDefinition: Sendable {
    public var name: String
    public var status: Int
    public var body: [UInt8]
    /// Nil for an empty body.
    public var contentType: String?
    /// Fixture path relative to the fixtures folder, when the body came from one.
    public var fixture: String?
    public var headers: [(name: String, value: String)] = []
    /// Query (and JSON body) values that select this response automatically.
    public var when: RequestMatch?
    /// Placeholders in the body (`{{baseURL}}`, `{{path.id}}`, `{{query.page}}`); nil for most.
    public var template: ResponseTemplate?
    /// How long the answer waits; nil for at once (or the server's `--delay`).
    public var delay: Latency?
    /// A broken answer instead of this one, on purpose.
    public var fault: Fault?
}
