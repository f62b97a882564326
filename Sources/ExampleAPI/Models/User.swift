public import Foundation

/// A Kickstarter member: a creator, a backer or the signed-in user.
///
/// Nested users (a project's creator, a backing's backer) carry only the identity fields;
/// profile fetches add the counts and location.
public struct User: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var avatar: Avatar
    public var urls: URLs
    public var backedProjectsCount: Int?
    public var createdProjectsCount: Int?
    /// `nil` when the member keeps their starred projects private.
    public var starredProjectsCount: Int?
    public var location: Location?

    /// Avatar image URLs by size.
    public struct Avatar: Codable, Sendable, Equatable {
        public var small: URL
        public var medium: URL
    }

    /// Links to the member's pages.
    public struct URLs: Codable, Sendable, Equatable {
        public var web: Web

        /// Web pages.
        public struct Web: Codable, Sendable, Equatable {
            /// The public profile page.
            public var user: URL
        }
    }
}
