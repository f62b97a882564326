import Foundation

/// The team's own models: camelCase properties over the API's snake_case keys.
public struct Me: Codable, Sendable {
    var id: Int
    var name: String
    var backedProjectsCount: Int
    var location: Place?
}

public struct Place: Codable, Sendable {
    var id: Int
    var displayableName: String
}

public struct Pledge: Codable, Sendable {
    var id: Int
    var amount: Double
    var status: String
    var pledgedAt: Date
    var projectId: Int
    var rewardId: Int?
}

public struct ActivityFeed: Codable, Sendable {
    public struct Item: Codable, Sendable {
        var id: Int
        var category: String
        var createdAt: Date
    }
    var activities: [Item]
}

public struct DraftImage: Codable, Sendable {
    var id: Int
    var thumb: URL
    var full: URL
}

/// The API's error envelope.
public struct TeamAPIError: Codable, Sendable {
    var errorMessages: [String]
    var httpCode: Int
}
