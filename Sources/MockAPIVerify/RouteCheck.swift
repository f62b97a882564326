public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One client route as the runner sees it: the contract it claims, a sample request built by
/// the client's own request builder, and how the client decodes each response it handles.
///
/// The runner sends exactly the request `request` returns (method, URL, headers, body) through
/// the run's ``Transport``; it adds nothing but `Prefer: example=NAME` when it asks for a
/// response other than `default`.
///
/// ```swift
/// RouteCheck(name: "backing", contract: "backing",
///            request: { baseURL in try MyRouter.backing(projectId: 1, backerId: 2).asURLRequest(baseURL: baseURL) },
///            responses: ["default": .decoding(Backing.self, with: MyAPI.decoder)])
/// ```
public struct RouteCheck: Sendable {
    /// The route's name in reports (usually the route's case).
    public var name: String
    /// The contract this route is meant to hit (its `name`).
    public var contract: String
    /// The client's own request for the mock server at the given base URL.
    public var request: @Sendable (_ baseURL: URL) throws -> URLRequest
    /// Response name → how the client decodes it. `default` is required: it decodes the answer
    /// to the plain request (a check without it fails, and nothing is sent for it); the others
    /// are asked for with `Prefer: example=NAME`. Each answer is judged as the response the
    /// server says it served, with the decoder declared for that name.
    public var responses: [String: ResponseDecoder]

    public init(
        name: String, contract: String, request: @escaping @Sendable (_ baseURL: URL) throws -> URLRequest,
        responses: [String: ResponseDecoder]
    ) {
        self.name = name
        self.contract = contract
        self.request = request
        self.responses = responses
    }
}

/// The route's name: what Swift Testing shows for each argument of `@Test(arguments: checks)`.
extension RouteCheck: CustomStringConvertible {
    public var description: String { name }
}
