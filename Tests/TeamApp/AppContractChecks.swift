// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
public import Foundation      // `public`: its public API shows URLRequest and RouteCheck (needed
public import MockAPIVerify   // under InternalImportsByDefault; the same as a plain import without it)

/// The app's routes as contract checks: each request built by the app's router, each answer
/// decoded with the app's decoder (snake_case keys, dates in seconds since 1970).
public enum AppContractChecks {
    /// The contracts the app answers for (it calls part of a shared API): a route missing for
    /// one of them fails `everyContractHasARoute` and the gate's `--strict`.
    public static let contracts = ["current_user", "backing", "update_backing", "activities", "upload_draft_image"]

    /// - Parameter router: how the app turns a route into a request (its tests swap in broken ones).
    public static func all(decoder: JSONDecoder = TeamClient.appDecoder(),
                           router: @escaping @Sendable (TeamRouter, URL) throws -> URLRequest = { try $0.asURLRequest(baseURL: $1) })
        -> [RouteCheck] {
        func check(_ contract: String, _ route: TeamRouter, _ responses: [String: ResponseDecoder]) -> RouteCheck {
            RouteCheck(name: contract, contract: contract, request: { try router(route, $0) }, responses: responses)
        }
        return [
            check("current_user", .currentUser, ["default": .decoding(Me.self, with: decoder),
                                                 "unauthorized": .decoding(TeamAPIError.self, with: decoder)]),
            check("backing", .backing(projectId: 42, backerId: 2001), ["default": .decoding(Pledge.self, with: decoder),
                                                                       "not_found": .decoding(TeamAPIError.self, with: decoder)]),
            check("update_backing", .updateBacking(projectId: 42, backerId: 2001, amount: 45, rewardId: 9002),
                  ["default": .decoding(Pledge.self, with: decoder), "invalid": .decoding(TeamAPIError.self, with: decoder),
                   "unauthorized": .decoding(TeamAPIError.self, with: decoder)]),
            check("activities", .activities(cursor: 2), ["default": .decoding(ActivityFeed.self, with: decoder),
                                                         "page2": .decoding(ActivityFeed.self, with: decoder)]),
            check("upload_draft_image", .uploadDraftImage(projectId: 42, image: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0xFF, 0xD9]),
                                                          fileName: "cover.jpg"),
                  ["default": .decoding(DraftImage.self, with: decoder)]),
        ]
    }
}
