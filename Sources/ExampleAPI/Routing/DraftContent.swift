/// The JSON body of `update_draft_body`: `{"title": "…", "body": "…", "public": true}`.
struct DraftContent: Encodable, Sendable {
    var title: String
    var body: String
    /// Left out of the JSON when `nil`, keeping the draft's current visibility.
    var isPublic: Bool?

    // `public` is a Swift keyword, so the flag is `isPublic` in Swift.
    enum CodingKeys: String, CodingKey {
        case title, body, isPublic = "public"
    }
}
