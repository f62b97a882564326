/// The body of `GET /v1/categories`.
public struct CategoryEnvelope: Codable, Sendable, Equatable {
    public var categories: [Category]
}
