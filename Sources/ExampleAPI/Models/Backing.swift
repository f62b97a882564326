public import Foundation

/// One backer's pledge to a project.
public struct Backing: Codable, Sendable, Equatable {
    public var id: Int
    /// The pledge in the project's currency, shipping included.
    public var amount: Double
    /// The shipping part of `amount`; `nil` when the reward does not ship.
    public var shippingAmount: Double?
    /// The backer's number among the project's backers.
    public var sequence: Int
    public var status: Status
    public var pledgedAt: Date
    public var projectId: Int
    public var backerId: Int
    /// `nil` for a pledge without a reward.
    public var rewardId: Int?
    /// The shipping location; `nil` when nothing ships.
    public var locationId: Int?
    public var backer: User?
    public var reward: Reward?
    public var location: Location?

    /// Where a pledge is between pledging and charging.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case pledged, canceled, collected, errored, dropped, preauth
        case authenticationRequired = "authentication_required"
    }
}
