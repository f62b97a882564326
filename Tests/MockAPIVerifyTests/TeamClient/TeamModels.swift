import Foundation

/// The team's own models: camelCase properties over the API's snake_case keys.
struct Me: Codable, Sendable {
    var id: Int
    var name: String
    var backedProjectsCount: Int
    var location: Place?
}

struct Place: Codable, Sendable {
    var id: Int
    var displayableName: String
}

struct Pledge: Codable, Sendable {
    var id: Int
    var amount: Double
    var status: String
    var pledgedAt: Date
    var projectId: Int
    var rewardId: Int?
}

struct ActivityFeed: Codable, Sendable {
    struct Item: Codable, Sendable {
        var id: Int
        var category: String
        var createdAt: Date
    }
    var activities: [Item]
}

struct DraftImage: Codable, Sendable {
    var id: Int
    var thumb: URL
    var full: URL
}

/// The API's error envelope.
struct TeamAPIError: Codable, Sendable {
    var errorMessages: [String]
    var httpCode: Int
}
