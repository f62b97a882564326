import Foundation

/// One HTTP call described as data: method, path, query, body and extra headers.
///
/// A team's route enum maps each case to an `Endpoint` in one readable table (the router
/// pattern); ``APIClient`` turns it into a `URLRequest` against the chosen environment.
///
/// ```swift
/// Endpoint(.get, "/v1/projects/\(id)/backers/self", query: [QueryItem("include", "reward")])
/// Endpoint(.put, "/v1/projects/1/backers/2", body: .json(BackingUpdate(amount: 10)))
/// ```
public struct Endpoint: Sendable {
    /// The HTTP method.
    public var method: Method
    /// The path below the environment's base URL, parameters already filled in (`/v1/projects/1`).
    public var path: String
    /// Query items in the order they are sent; items whose value is `nil` are left out.
    public var query: [QueryItem]
    /// The request body.
    public var body: Body
    /// Extra headers; they override the client's default headers of the same name.
    public var headers: [String: String]

    /// Creates an endpoint.
    public init(
        _ method: Method,
        _ path: String,
        query: [QueryItem] = [],
        body: Body = .none,
        headers: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.headers = headers
    }
}

extension Endpoint: EndpointConvertible {
    /// An endpoint describes itself, so it can be passed wherever a route is expected.
    public var endpoint: Endpoint { self }
}

extension Endpoint: CustomStringConvertible {
    /// `GET /v1/projects?page=2`: method, path and encoded query, as used in error messages.
    public var description: String {
        let query = QueryItem.encode(query)
        return "\(method.rawValue) \(path)" + (query.isEmpty ? "" : "?\(query)")
    }
}
