public import Foundation

/// A crowdfunding project: its goal, progress, creator, category and place.
public struct Project: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    /// The URL slug (`lantern-card-game`), also accepted by `GET /v1/projects/{slug}`.
    public var slug: String
    /// The one-sentence pitch.
    public var blurb: String
    public var state: State
    /// The funding goal in `currency`.
    public var goal: Double
    /// The amount pledged so far in `currency`.
    public var pledged: Double
    /// ISO 4217 currency code (`USD`).
    public var currency: String
    /// ISO 3166-1 alpha-2 country code of the creator.
    public var country: String
    public var backersCount: Int
    public var launchedAt: Date
    /// When funding ends.
    public var deadline: Date
    /// Whether Kickstarter staff picked the project ("Projects We Love").
    public var staffPick: Bool
    public var creator: User
    public var category: Category
    public var location: Location
    public var photo: Photo
    public var urls: URLs
    /// Whether the signed-in user starred the project; `nil` when not known.
    public var isStarred: Bool?
    /// The reward tiers; present only on a full project fetch.
    public var rewards: [Reward]?

    /// Where a project is in its life.
    public enum State: String, Codable, Sendable, CaseIterable {
        case submitted, started, live, successful, failed, canceled, suspended
    }

    /// The project's key image by size.
    public struct Photo: Codable, Sendable, Equatable {
        public var thumb: URL
        public var full: URL
    }

    /// Links to the project's pages.
    public struct URLs: Codable, Sendable, Equatable {
        public var web: Web

        /// Web pages.
        public struct Web: Codable, Sendable, Equatable {
            /// The project page.
            public var project: URL
        }
    }

    /// The share of the goal pledged so far (`1.5` means 150 %).
    public var percentFunded: Double { goal > 0 ? pledged / goal : 0 }
}
