/// A place a project, backer or shipping address belongs to (`New York, NY`).
public struct Location: Codable, Sendable, Equatable {
    public var id: Int
    /// The short name (`New York`).
    public var name: String
    /// The name to show people (`New York, NY`).
    public var displayableName: String
    /// ISO 3166-1 alpha-2 country code (`US`).
    public var country: String
    /// State, province or region; `nil` where a country has none.
    public var state: String?
    /// The kind of place (`Town`, `County`).
    public var type: String
}
