/// A success body with nothing in it: `{}`.
public struct EmptyResponse: Codable, Sendable, Equatable {
    public init() {}
}
