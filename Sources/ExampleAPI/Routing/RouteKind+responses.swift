public import ClientKit
public import Foundation

extension RouteKind {
    /// A model type the verifier can decode a response into without knowing it statically.
    public typealias ResponseType = any (Decodable & Sendable).Type

    /// The model the contract's `default` response decodes into.
    public var responseType: ResponseType {
        switch self {
        case .activities: ActivityEnvelope.self
        case .project, .projectBySlug: Project.self
        case .starProject: StarEnvelope.self
        case .backing, .updateBacking: Backing.self
        case .categories: CategoryEnvelope.self
        case .category: Category.self
        case .currentUser, .user: User.self
        case .updateDraft, .updateDraftBody: UpdateDraft.self
        case .uploadDraftImage: UpdateDraft.Image.self
        case .uploadDraftVideo: UpdateDraft.Video.self
        case .deleteDraftImage: EmptyResponse.self
        case .publishDraft: Update.self
        case .discover: DiscoverEnvelope.self
        case .facebookLogin, .facebookSignup: AccessTokenEnvelope.self
        }
    }

    /// The contract's other named responses this client handles, and the model each decodes into:
    /// error statuses into ``ErrorEnvelope``, alternative successes into ``responseType``.
    public var namedResponses: [String: ResponseType] {
        switch self {
        case .activities: ["page2": ActivityEnvelope.self]
        case .project, .projectBySlug, .starProject, .backing, .category, .user, .deleteDraftImage:
            ["not_found": ErrorEnvelope.self]
        case .updateBacking: ["invalid": ErrorEnvelope.self, "unauthorized": ErrorEnvelope.self]
        case .currentUser: ["unauthorized": ErrorEnvelope.self]
        case .updateDraft: ["no_media": UpdateDraft.self, "not_found": ErrorEnvelope.self]
        case .updateDraftBody, .publishDraft, .facebookSignup: ["invalid": ErrorEnvelope.self]
        case .facebookLogin: ["unauthorized": ErrorEnvelope.self]
        case .categories, .uploadDraftImage, .uploadDraftVideo, .discover: [:]
        }
    }

    /// The model for the response called `name` (`default` included); `nil` for a name this client does not handle.
    public func responseType(named name: String) -> ResponseType? {
        name == "default" ? responseType : namedResponses[name]
    }

    /// Decodes `data` as the response called `name` exactly as the client's request methods do.
    ///
    /// ```swift
    /// let route = RouteKind.backing.sample
    /// let (data, _) = try await client.send(route)
    /// let envelope = try route.kind.decode(data, response: "not_found", using: client, endpoint: route.endpoint.description)
    /// ```
    /// - Parameter endpoint: The call the body came from, for failure messages (`GET /v1/projects/42`).
    /// - Throws: ``UnhandledResponse`` for a name this kind has no model for; ``APIError/decoding(_:)``
    ///   with the JSON path when the body does not fit the model.
    public func decode(
        _ data: Data,
        response name: String = "default",
        using client: APIClient,
        endpoint: String = ""
    ) throws -> any Sendable {
        guard let type = responseType(named: name) else { throw UnhandledResponse(kind: self, name: name) }
        return try client.decode(type, from: data, endpoint: endpoint)
    }
}
