/// A response name a ``RouteKind`` has no model for.
public struct UnhandledResponse: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: RouteKind
    /// The response name asked for (`gone`).
    public var name: String

    /// Creates the error.
    public init(kind: RouteKind, name: String) {
        self.kind = kind
        self.name = name
    }

    public var description: String {
        "route kind \(kind.rawValue) has no model for response '\(name)'"
    }
}
