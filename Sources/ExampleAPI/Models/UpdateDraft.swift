/// A project's unpublished update, with the images and video attached to it so far.
public struct UpdateDraft: Codable, Sendable, Equatable {
    public var id: Int
    public var projectId: Int
    /// The number the update will get when published.
    public var sequence: Int
    public var title: String
    public var body: String
    /// `false` when only backers will be able to read it.
    public var isPublic: Bool
    public var images: [Image]
    /// The attached video, if any.
    public var video: Video?

    // `public` is a Swift keyword, so the flag is `isPublic` in Swift.
    enum CodingKeys: String, CodingKey {
        case id, projectId, sequence, title, body, isPublic = "public", images, video
    }
}
