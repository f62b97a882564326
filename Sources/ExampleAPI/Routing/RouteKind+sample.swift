import Foundation

extension RouteKind {
    /// A route of this kind whose request the bundled contracts accept, with ids from the
    /// bundled fixtures; uploads carry a few bytes shaped like a JPEG or an MP4.
    public var sample: Route {
        switch self {
        case .activities: .activities(count: 20)
        case .project: .project(id: 42)
        case .projectBySlug: .projectBySlug("lantern-card-game")
        case .starProject: .starProject(id: 42)
        case .backing: .backing(projectId: 42, backerId: 2001)
        case .updateBacking: .updateBacking(projectId: 42, backerId: 2001, amount: 45, rewardId: 9002, locationId: 2_475_687)
        case .categories: .categories
        case .category: .category(id: 34)
        case .currentUser: .currentUser
        case .user: .user(id: 1001)
        case .updateDraft: .updateDraft(projectId: 42)
        case .uploadDraftImage: .uploadDraftImage(.sampleJPEG, toDraft: .sample)
        case .uploadDraftVideo: .uploadDraftVideo(.sampleMP4, toDraft: .sample)
        case .deleteDraftImage: .deleteDraftImage(UpdateDraft.sample.images[0], fromDraft: .sample)
        case .updateDraftBody: .updateDraftBody(.sample, title: "Shipping update", body: "Pallets leave the factory next week.", isPublic: true)
        case .publishDraft: .publishDraft(.sample)
        case .discover: .discover(categoryIds: [34, 35], sort: .popularity, page: 1)
        case .facebookLogin: .facebookLogin(accessToken: "EAAB-facebook-token")
        case .facebookSignup: .facebookSignup(accessToken: "EAAB-facebook-token", sendNewsletters: false)
        }
    }
}

extension UpdateDraft {
    /// The draft in `fixtures/drafts/update_draft.json`, for samples.
    static let sample = UpdateDraft(
        id: 5502, projectId: 42, sequence: 4, title: "Shipping update", body: "Pallets leave the factory next week.",
        isPublic: true,
        images: [
            Image(
                id: 31,
                thumb: URL(string: "https://ksr-ugc.imgix.net/assets/draft/31/thumb.jpg")!,
                full: URL(string: "https://ksr-ugc.imgix.net/assets/draft/31/full.jpg")!
            )
        ],
        video: nil
    )
}

extension MediaFile {
    /// A JFIF header and end-of-image marker: enough to look like a JPEG to a server.
    static let sampleJPEG = MediaFile(
        fileName: "cover.jpg",
        data: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])
    )

    /// An `ftyp` box with the `mp42` brand followed by an empty `free` box.
    static let sampleMP4 = MediaFile(
        fileName: "teaser.mp4",
        data: Data([0x00, 0x00, 0x00, 0x18] + Array("ftypmp42".utf8) + [0x00, 0x00, 0x00, 0x00] + Array("mp42isom".utf8) + [0x00, 0x00, 0x00, 0x08] + Array("free".utf8))
    )
}
