/// The contract each ``Route`` case hits; the raw value is the contract's `name`.
///
/// `CaseIterable` plus the exhaustive switches in ``Route/kind`` and ``sample`` make the
/// compiler keep routes, contracts, samples and response types in step.
public enum RouteKind: String, Sendable, CaseIterable {
    case activities
    case project
    case projectBySlug = "project_by_slug"
    case starProject = "star_project"
    case backing
    case updateBacking = "update_backing"
    case categories
    case category
    case currentUser = "current_user"
    case user
    case updateDraft = "update_draft"
    case uploadDraftImage = "upload_draft_image"
    case uploadDraftVideo = "upload_draft_video"
    case deleteDraftImage = "delete_draft_image"
    case updateDraftBody = "update_draft_body"
    case publishDraft = "publish_draft"
    case discover
    case facebookLogin = "facebook_login"
    case facebookSignup = "facebook_signup"

    /// The contract name (`update_backing`).
    public var contractName: String { rawValue }
}
