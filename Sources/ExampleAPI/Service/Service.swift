public import ClientKit
public import Foundation

/// The example API as the app sees it: one short async method per route, returning models.
///
/// ```swift
/// let service = Service(client: APIClient(configuration: ClientConfiguration(environment: .production, token: token)))
/// let backing = try await service.backing(projectId: 42, backerId: 2001)
/// for try await page in service.activityPages() { show(page.activities) }
/// ```
/// Failures are ClientKit's ``APIError``: `.server(status: 404, envelope:, body:)` carries the
/// API's ``ErrorEnvelope``.
public struct Service: Sendable {
    /// The client every call goes through.
    public let client: APIClient

    /// Creates a service on `client`.
    public init(client: APIClient) {
        self.client = client
    }

    // MARK: Activity

    /// One page of the signed-in user's activity feed.
    public func activities(cursor: Int? = nil, count: Int? = nil) async throws -> ActivityEnvelope {
        try await client.request(Route.activities(cursor: cursor, count: count))
    }

    /// Every page of the activity feed, following `urls.api.more_activities` until it is `null`.
    public func activityPages(count: Int? = nil) -> AsyncThrowingStream<ActivityEnvelope, any Error> {
        client.pages(Route.activities(count: count), as: ActivityEnvelope.self)
    }

    // MARK: Projects

    /// A project by id, with its rewards.
    public func project(id: Int) async throws -> Project {
        try await client.request(Route.project(id: id))
    }

    /// A project by its URL slug (`lantern-card-game`).
    public func project(slug: String) async throws -> Project {
        try await client.request(Route.projectBySlug(slug))
    }

    /// Stars a project and returns it as it is afterwards.
    public func starProject(id: Int) async throws -> Project {
        try await client.request(Route.starProject(id: id), as: StarEnvelope.self).project
    }

    /// One page of projects in any of `categoryIds` (all when empty).
    public func discover(categoryIds: [Int] = [], sort: DiscoverSort? = nil, page: Int? = nil) async throws -> DiscoverEnvelope {
        try await client.request(Route.discover(categoryIds: categoryIds, sort: sort, page: page))
    }

    // MARK: Backings

    /// A backer's pledge to a project, with the backer, reward and shipping location.
    public func backing(projectId: Int, backerId: Int) async throws -> Backing {
        try await client.request(Route.backing(projectId: projectId, backerId: backerId))
    }

    /// Changes a pledge's amount, reward or shipping location; needs the client's token.
    public func updateBacking(
        projectId: Int,
        backerId: Int,
        amount: Double,
        rewardId: Int,
        locationId: Int? = nil
    ) async throws -> Backing {
        try await client.request(
            Route.updateBacking(
                projectId: projectId, backerId: backerId, amount: amount, rewardId: rewardId, locationId: locationId
            ))
    }

    // MARK: Categories

    /// Every category, roots and subcategories alike.
    public func categories() async throws -> [Category] {
        try await client.request(Route.categories, as: CategoryEnvelope.self).categories
    }

    /// A category by id.
    public func category(id: Int) async throws -> Category {
        try await client.request(Route.category(id: id))
    }

    // MARK: Users

    /// The signed-in user; needs the client's token.
    public func currentUser() async throws -> User {
        try await client.request(Route.currentUser)
    }

    /// A member's public profile.
    public func user(id: Int) async throws -> User {
        try await client.request(Route.user(id: id))
    }

    // MARK: Update drafts

    /// The project's unpublished update, with its attached media.
    public func updateDraft(projectId: Int) async throws -> UpdateDraft {
        try await client.request(Route.updateDraft(projectId: projectId))
    }

    /// Attaches an image (JPEG, PNG or GIF, at most 10 MiB) to `draft`.
    public func uploadDraftImage(_ file: MediaFile, toDraft draft: UpdateDraft) async throws -> UpdateDraft.Image {
        try await client.request(Route.uploadDraftImage(file, toDraft: draft))
    }

    /// Attaches the image file at `url` to `draft`.
    public func uploadDraftImage(contentsOf url: URL, toDraft draft: UpdateDraft) async throws -> UpdateDraft.Image {
        try await uploadDraftImage(MediaFile(contentsOf: url), toDraft: draft)
    }

    /// Attaches a video (MP4 or QuickTime, at most 25 MiB) to `draft`; it comes back `.processing`.
    public func uploadDraftVideo(_ file: MediaFile, toDraft draft: UpdateDraft) async throws -> UpdateDraft.Video {
        try await client.request(Route.uploadDraftVideo(file, toDraft: draft))
    }

    /// Attaches the video file at `url` to `draft`.
    public func uploadDraftVideo(contentsOf url: URL, toDraft draft: UpdateDraft) async throws -> UpdateDraft.Video {
        try await uploadDraftVideo(MediaFile(contentsOf: url), toDraft: draft)
    }

    /// Removes `image` from `draft`.
    public func deleteDraftImage(_ image: UpdateDraft.Image, fromDraft draft: UpdateDraft) async throws {
        _ = try await client.request(Route.deleteDraftImage(image, fromDraft: draft), as: EmptyResponse.self)
    }

    /// Saves the draft's title and body; a `nil` `isPublic` keeps its visibility.
    public func updateDraftBody(
        _ draft: UpdateDraft,
        title: String,
        body: String,
        isPublic: Bool? = nil
    ) async throws -> UpdateDraft {
        try await client.request(Route.updateDraftBody(draft, title: title, body: body, isPublic: isPublic))
    }

    /// Signs in with a Facebook access token; the API answers with its own token and the account.
    public func facebookLogin(accessToken: String) async throws -> AccessTokenEnvelope {
        try await client.request(Route.facebookLogin(accessToken: accessToken))
    }

    /// Creates an account from a Facebook access token.
    public func facebookSignup(accessToken: String, sendNewsletters: Bool? = nil) async throws -> AccessTokenEnvelope {
        try await client.request(Route.facebookSignup(accessToken: accessToken, sendNewsletters: sendNewsletters))
    }

    /// Publishes `draft` as the project's next update.
    public func publishDraft(_ draft: UpdateDraft) async throws -> Update {
        try await client.request(Route.publishDraft(draft))
    }
}
