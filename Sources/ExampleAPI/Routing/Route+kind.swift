extension Route {
    /// The contract this route hits.
    public var kind: RouteKind {
        switch self {
        case .activities: .activities
        case .project: .project
        case .projectBySlug: .projectBySlug
        case .starProject: .starProject
        case .backing: .backing
        case .updateBacking: .updateBacking
        case .categories: .categories
        case .category: .category
        case .currentUser: .currentUser
        case .user: .user
        case .updateDraft: .updateDraft
        case .uploadDraftImage: .uploadDraftImage
        case .uploadDraftVideo: .uploadDraftVideo
        case .deleteDraftImage: .deleteDraftImage
        case .updateDraftBody: .updateDraftBody
        case .publishDraft: .publishDraft
        case .discover: .discover
        case .facebookLogin: .facebookLogin
        case .facebookSignup: .facebookSignup
        }
    }
}
