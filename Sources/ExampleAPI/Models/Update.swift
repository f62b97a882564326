public import Foundation

/// A published project update (a creator's post to backers).
public struct Update: Codable, Sendable, Equatable {
    public var id: Int
    public var projectId: Int
    /// The update's number within the project (`Update #4`).
    public var sequence: Int
    public var title: String
    public var body: String
    /// `false` when only backers can read it.
    public var isPublic: Bool
    public var publishedAt: Date?
    public var commentsCount: Int
    public var likesCount: Int
    /// The author.
    public var user: User?
    public var urls: URLs

    /// Links to the update's pages.
    public struct URLs: Codable, Sendable, Equatable {
        public var web: Web

        /// Web pages.
        public struct Web: Codable, Sendable, Equatable {
            /// The update's page.
            public var update: URL
        }
    }

    // `public` is a Swift keyword, so the flag is `isPublic` in Swift.
    enum CodingKeys: String, CodingKey {
        case id, projectId, sequence, title, body, isPublic = "public", publishedAt, commentsCount, likesCount, user, urls
    }
}
