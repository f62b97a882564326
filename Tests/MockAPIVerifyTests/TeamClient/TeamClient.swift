import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPIVerify

/// The team's session pieces: its decoder, its auth interceptor, and its routes as the
/// contract runner's checks, all built from the team's own code.
struct TeamClient: Sendable {
    var token = "team-secret"
    var bugs: TeamClientBugs = []

    /// The decoder the app uses for every response.
    var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        if !bugs.contains(.noSnakeCase) { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = bugs.contains(.iso8601Dates) ? .iso8601 : .secondsSince1970
        return decoder
    }

    /// The app's transport: its own URLSession behind an interceptor that signs every request,
    /// as an Alamofire `RequestInterceptor.adapt` would.
    var transport: Transport {
        let token = bugs.contains(.noToken) ? nil : token
        let session = URLSession(configuration: .ephemeral)
        return Transport { request in
            var request = request
            if let token { request.setValue("token \(token)", forHTTPHeaderField: "Authorization") }
            return try await Transport.urlSession(session).send(request)
        }
    }

    /// Every route, with a sample request and the models the app decodes its answers into.
    var checks: [RouteCheck] {
        let bugs = self.bugs
        func check(_ contract: String, _ route: TeamRouter, _ responses: [String: ResponseDecoder]) -> RouteCheck {
            RouteCheck(name: contract, contract: contract, request: { try route.asURLRequest(baseURL: $0, bugs: bugs) }, responses: responses)
        }
        let decoder = self.decoder
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
