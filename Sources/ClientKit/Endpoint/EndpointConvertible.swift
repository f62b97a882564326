/// A route that can describe itself as an ``Endpoint``; typically a team's `Route` enum.
///
/// ```swift
/// enum Route: EndpointConvertible {
///     case project(id: Int)
///     var endpoint: Endpoint {
///         switch self {
///         case .project(let id): Endpoint(.get, "/v1/projects/\(id)")
///         }
///     }
/// }
/// ```
public protocol EndpointConvertible: Sendable {
    /// The HTTP description of this route.
    var endpoint: Endpoint { get }
}
