public import ClientKit

/// Every call the app makes to the bundled example API, one case per contract.
///
/// `endpoint` is the whole HTTP surface in one table; ``kind`` names the contract each case
/// hits, so a new case does not compile until it has a contract name, a response type and a
/// sample (see ``RouteKind``).
///
/// ```swift
/// let backing: Backing = try await client.request(Route.backing(projectId: 42, backerId: 2001))
/// ```
public enum Route: Sendable, Equatable {
    /// The signed-in user's activity feed; `cursor` picks a page, `count` its size.
    case activities(cursor: Int? = nil, count: Int? = nil)
    case project(id: Int)
    /// A project by slug; an all-digit slug reaches `project` instead, since `{id:int}` beats `{slug}`.
    case projectBySlug(String)
    /// Stars a project for the signed-in user.
    case starProject(id: Int)
    case backing(projectId: Int, backerId: Int)
    /// Changes a pledge; `locationId` is the shipping location, when the reward ships.
    case updateBacking(projectId: Int, backerId: Int, amount: Double, rewardId: Int, locationId: Int? = nil)
    case categories
    case category(id: Int)
    /// The signed-in user; needs the client's token.
    case currentUser
    case user(id: Int)
    /// The project's unpublished update.
    case updateDraft(projectId: Int)
    case uploadDraftImage(MediaFile, toDraft: UpdateDraft)
    case uploadDraftVideo(MediaFile, toDraft: UpdateDraft)
    case deleteDraftImage(UpdateDraft.Image, fromDraft: UpdateDraft)
    /// Saves the draft's text; a `nil` `isPublic` keeps its visibility.
    case updateDraftBody(UpdateDraft, title: String, body: String, isPublic: Bool? = nil)
    case publishDraft(UpdateDraft)
    /// Projects in any of `categoryIds` (all when empty), in `sort` order, page `page`.
    case discover(categoryIds: [Int] = [], sort: DiscoverSort? = nil, page: Int? = nil)
    /// Signs in with a Facebook token (`PUT /v1/facebook/access_token`, `intent: login`).
    case facebookLogin(accessToken: String)
    /// Creates an account from a Facebook token (the same path, `intent: register`).
    case facebookSignup(accessToken: String, sendNewsletters: Bool? = nil)
}

extension Route: EndpointConvertible {
    /// The HTTP request for this route.
    public var endpoint: Endpoint {
        switch self {
        case let .activities(cursor, count):
            Endpoint(.get, "/v1/activities", query: [QueryItem("cursor", cursor.map(QueryValue.int)), QueryItem("count", count.map(QueryValue.int))])
        case let .project(id):
            Endpoint(.get, "/v1/projects/\(id)")
        case let .projectBySlug(slug):
            Endpoint(.get, "/v1/projects/\(slug)")
        case let .starProject(id):
            Endpoint(.post, "/v1/projects/\(id)/star")
        case let .backing(projectId, backerId):
            Endpoint(.get, "/v1/projects/\(projectId)/backers/\(backerId)")
        case let .updateBacking(projectId, backerId, amount, rewardId, locationId):
            Endpoint(
                .put, "/v1/projects/\(projectId)/backers/\(backerId)",
                body: .json(BackingChange(amount: amount, rewardId: rewardId, locationId: locationId)))
        case .categories:
            Endpoint(.get, "/v1/categories")
        case let .category(id):
            Endpoint(.get, "/v1/categories/\(id)")
        case .currentUser:
            Endpoint(.get, "/v1/users/self")
        case let .user(id):
            Endpoint(.get, "/v1/users/\(id)")
        case let .updateDraft(projectId):
            Endpoint(.get, "/v1/projects/\(projectId)/updates/draft")
        case let .uploadDraftImage(file, draft):
            Endpoint(.post, "/v1/projects/\(draft.projectId)/updates/draft/images", body: .upload(file.upload(partName: "image")))
        case let .uploadDraftVideo(file, draft):
            Endpoint(.post, "/v1/projects/\(draft.projectId)/updates/draft/video", body: .upload(file.upload(partName: "video")))
        case let .deleteDraftImage(image, draft):
            Endpoint(.delete, "/v1/projects/\(draft.projectId)/updates/draft/images/\(image.id)")
        case let .updateDraftBody(draft, title, body, isPublic):
            Endpoint(
                .put, "/v1/projects/\(draft.projectId)/updates/draft",
                body: .json(DraftContent(title: title, body: body, isPublic: isPublic)))
        case let .publishDraft(draft):
            Endpoint(.post, "/v1/projects/\(draft.projectId)/updates/draft/publish")
        case let .discover(categoryIds, sort, page):
            Endpoint(
                .get, "/v1/discover",
                query: [
                    QueryItem("category_ids", categoryIds.isEmpty ? nil : .array(categoryIds.map(String.init))),
                    QueryItem("sort", sort.map { .string($0.rawValue) }),
                    QueryItem("page", page.map(QueryValue.int)),
                ])
        case let .facebookLogin(accessToken):
            Endpoint(.put, "/v1/facebook/access_token", body: .json(FacebookAuth(accessToken: accessToken, intent: .login)))
        case let .facebookSignup(accessToken, sendNewsletters):
            Endpoint(
                .put, "/v1/facebook/access_token",
                body: .json(FacebookAuth(accessToken: accessToken, intent: .register, sendNewsletters: sendNewsletters)))
        }
    }
}
