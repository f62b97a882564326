import ClientKit
import Foundation
import FoundationNetworking
import Testing

@testable import ExampleAPI

/// The `Route` → `Endpoint` table, without a server.
@Suite struct RouteTests {
    @Test func everySampleMapsToItsMethodAndPath() {
        let table = RouteKind.allCases.map { kind in
            let endpoint = kind.sample.endpoint
            return "\(kind.rawValue): \(endpoint.method.rawValue) \(endpoint.path)"
        }

        #expect(
            table == [
                "activities: GET /v1/activities",
                "project: GET /v1/projects/42",
                "project_by_slug: GET /v1/projects/lantern-card-game",
                "star_project: POST /v1/projects/42/star",
                "backing: GET /v1/projects/42/backers/2001",
                "update_backing: PUT /v1/projects/42/backers/2001",
                "categories: GET /v1/categories",
                "category: GET /v1/categories/34",
                "current_user: GET /v1/users/self",
                "user: GET /v1/users/1001",
                "update_draft: GET /v1/projects/42/updates/draft",
                "upload_draft_image: POST /v1/projects/42/updates/draft/images",
                "upload_draft_video: POST /v1/projects/42/updates/draft/video",
                "delete_draft_image: DELETE /v1/projects/42/updates/draft/images/31",
                "update_draft_body: PUT /v1/projects/42/updates/draft",
                "publish_draft: POST /v1/projects/42/updates/draft/publish",
                "discover: GET /v1/discover",
                "facebook_login: PUT /v1/facebook/access_token",
                "facebook_signup: PUT /v1/facebook/access_token",
            ])
    }

    @Test func everySampleIsItsOwnKind() {
        for kind in RouteKind.allCases {
            #expect(kind.sample.kind == kind)
        }
    }

    @Test func optionalQueryItemsAreLeftOut() {
        #expect(QueryItem.encode(Route.activities().endpoint.query) == "")
        #expect(QueryItem.encode(Route.discover().endpoint.query) == "")
        #expect(QueryItem.encode(Route.activities(cursor: 2, count: 10).endpoint.query) == "cursor=2&count=10")
    }

    @Test func discoverSendsCategoryIdsAsAnArray() {
        let query = Route.discover(categoryIds: [34, 35], sort: .endDate, page: 2).endpoint.query

        #expect(QueryItem.encode(query) == "category_ids%5B%5D=34&category_ids%5B%5D=35&sort=end_date&page=2")
    }

    @Test func uploadRoutesNameTheirParts() throws {
        guard case let .upload(image) = RouteKind.uploadDraftImage.sample.endpoint.body,
            case let .upload(video) = RouteKind.uploadDraftVideo.sample.endpoint.body
        else {
            Issue.record("upload samples carry no upload")
            return
        }

        #expect([image.partName, image.fileName, image.contentType] == ["image", "cover.jpg", "image/jpeg"])
        #expect([video.partName, video.fileName, video.contentType] == ["video", "teaser.mp4", "video/mp4"])
        #expect(Upload.detectContentType(fileName: "", data: image.data) == "image/jpeg")
        #expect(Upload.detectContentType(fileName: "", data: video.data) == "video/mp4")
    }

    @Test func updateBackingBodyLeavesOutAMissingLocation() throws {
        let route = Route.updateBacking(projectId: 42, backerId: 2001, amount: 45, rewardId: 9002)

        #expect(try jsonBody(of: route) == #"{"amount":45,"reward_id":9002}"#)
    }

    @Test func updateDraftBodySendsThePublicKey() throws {
        let route = Route.updateDraftBody(.sample, title: "Hi", body: "There", isPublic: false)

        #expect(try jsonBody(of: route) == #"{"body":"There","public":false,"title":"Hi"}"#)
    }

    /// The JSON body `route` sends, as the client encodes it.
    private func jsonBody(of route: Route) throws -> String {
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 1)))
        let request = try client.urlRequest(for: route.endpoint)
        return String(decoding: try #require(request.httpBody), as: UTF8.self)
    }
}
