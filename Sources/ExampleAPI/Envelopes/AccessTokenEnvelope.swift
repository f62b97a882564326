/// What signing in or up with Facebook returns: the API's own token and the account.
public struct AccessTokenEnvelope: Codable, Sendable, Equatable {
    public var accessToken: String
    public var user: User
}
