/// The JSON body of `facebook_login` and `facebook_signup`: the same path, told apart by `intent`.
struct FacebookAuth: Encodable, Sendable {
    enum Intent: String, Encodable, Sendable {
        case login, register
    }

    var accessToken: String
    var intent: Intent
    /// Signup only; left out when `nil`.
    var sendNewsletters: Bool?
}
