extension Endpoint {
    /// What a request carries in its body.
    public enum Body: Sendable {
        /// No body.
        case none
        /// A value encoded with the client's JSON encoder (snake_case keys), sent as `application/json`.
        case json(any Encodable & Sendable)
        /// One file sent as `multipart/form-data`.
        case upload(Upload)
    }
}

extension Endpoint.Body {
    /// True for `.none`.
    public var isNone: Bool {
        if case .none = self { true } else { false }
    }
}
