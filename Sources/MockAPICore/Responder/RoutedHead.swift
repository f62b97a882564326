/// What the responder makes of a request's head (method, path, headers), before any of its
/// body is read (`Responder.route`): where it goes and what of its body to keep.
package struct RoutedHead: Sendable {
    package var destination: Responder.Destination
    package var body: BodyPlan
    /// The request's `Content-Type`, read only when its contract checks a body (the only checks
    /// that use it).
    package var contentType: String?
    /// The most body bytes the request may send, and the flag that sets that limit (a flag, not
    /// a String, is kept: a field fewer to retain and release on every request).
    package var bodyLimit: Int
    var limitIsJSON: Bool
    package var bodyLimitFlag: String { limitIsJSON ? "--max-json-bytes" : "--max-body-bytes" }

    /// What to keep of a request's body: only what its contract can check.
    package enum BodyPlan: Sendable, Equatable {
        /// Counted, not kept.
        case discard
        /// Buffered whole, to be parsed.
        case json
        /// Buffered whole, to be read as `application/x-www-form-urlencoded` fields.
        case form
        /// Streamed through a multipart parser, each part hashed.
        case multipart(boundary: String)
        /// Every byte as sent, for the real backend (`--proxy-unmatched`).
        case raw
        /// Unreadable as declared; the reason is answered as a 400 once the body has arrived.
        case malformed(String)
    }

    /// A JSON body is buffered whole to be parsed, so it has its own limit.
    package var buffersJSON: Bool { body == .json || body == .form }
}

/// The body could not be read: answered as a 400.
package struct MalformedBody: Error, Sendable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}

/// What the responder says once a request's head has arrived (`Responder.admit`).
///
/// Its own type, not a `Decision`: reading on is no answer, and it carries what no decision
/// holds, the declared length the server reserves from the shared budget before the body comes.
package enum Admission: Sendable {
    /// Read the body; `declaredLength` is its `Content-Length`, when it has one.
    case readBody(declaredLength: Int?)
    /// Answer at once, before any of the body is read.
    case answer(Decision)
}

/// Why the server stopped reading a body: facts the responder turns into an answer
/// (`Responder.admit(_:refusing:)`).
package enum BodyRefusal: Sendable {
    /// Past `RoutedHead.bodyLimit`.
    case tooLarge
    /// Past the bytes every connection's bodies may hold together (`--max-buffered-bytes`).
    case bufferBudgetFull
}
