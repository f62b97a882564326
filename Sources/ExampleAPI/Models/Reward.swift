public import Foundation

/// A reward tier a backer can pledge for.
public struct Reward: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var description: String
    /// The smallest pledge, in the project's currency, that earns this reward.
    public var minimum: Double
    public var backersCount: Int
    /// How many backers the tier can take; `nil` when unlimited.
    public var limit: Int?
    /// Places left; `nil` when unlimited.
    public var remaining: Int?
    /// The creator's estimate of when the reward ships.
    public var estimatedDeliveryOn: Date?
}
