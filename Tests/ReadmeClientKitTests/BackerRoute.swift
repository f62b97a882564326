// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import ClientKit
import Foundation

enum BackerRoute: EndpointConvertible {
    case project(id: Int)
    case discover(categoryIds: [Int], page: Int?)
    case activities
    case categories
    case updateBacking(projectId: Int, backerId: Int, BackingChange)
    case uploadImage(Upload, projectId: Int)

    var endpoint: Endpoint {
        switch self {
        case let .project(id):
            Endpoint(.get, "/v1/projects/\(id)")
        case let .discover(categoryIds, page):
            Endpoint(.get, "/v1/discover", query: [
                QueryItem("category_ids", .array(categoryIds.map(String.init))),  // category_ids[]=1&category_ids[]=2
                QueryItem("page", page.map(QueryValue.int)),                      // nil: left out
            ])
        case .activities:
            Endpoint(.get, "/v1/activities")
        case .categories:
            Endpoint(.get, "/v1/categories")
        case let .updateBacking(projectId, backerId, change):
            Endpoint(.put, "/v1/projects/\(projectId)/backers/\(backerId)", body: .json(change))  // snake_case keys
        case let .uploadImage(upload, projectId):
            Endpoint(.post, "/v1/projects/\(projectId)/updates/draft/images", body: .upload(upload))  // multipart/form-data
        }
    }
}

struct BackingChange: Encodable, Sendable { var amount: Double; var rewardId: Int }
struct Project: Codable, Sendable { var id: Int; var name: String; var backersCount: Int }
struct DiscoverPage: Decodable, Sendable { var projects: [Project] }
struct Activity: Decodable, Sendable { var id: Int; var category: String }
struct ActivityPage: PaginatedResponse {
    struct URLs: Decodable, Sendable { struct API: Decodable, Sendable { var moreActivities: String? }; var api: API }
    var activities: [Activity]
    var urls: URLs
    var nextPageURL: String? { urls.api.moreActivities }
}

extension APIEnvironment {
    static let production = APIEnvironment(name: "production", baseURL: URL(string: "https://api.example.com")!)
    static let staging = APIEnvironment(name: "staging", baseURL: URL(string: "https://api-staging.example.com")!)
}

/// What the app's first screen loads; `launchValue` is `production`, `staging` or a URL such as
/// `http://127.0.0.1:8080` (a launch argument, so UI tests can point the app at `mockapi serve`).
func loadHome(launchValue: String, token: String?) async throws -> (project: Project, discover: [Project], activities: [Activity], categories: String) {
    let client = APIClient(configuration: ClientConfiguration(
        environment: APIEnvironment.parse(launchValue, known: [.production, .staging]) ?? .production,
        appName: "Backer", appVersion: "2.1", token: token,
        retry: RetryPolicy(maxAttempts: 3, delay: .exponential(initial: .milliseconds(200), multiplier: 2, max: .seconds(2)))
    ))
    let project = try await client.request(BackerRoute.project(id: 1), as: Project.self)
    let discover = try await client.request(BackerRoute.discover(categoryIds: [1, 2], page: nil), as: DiscoverPage.self)
    let three = try await client.all([BackerRoute.project(id: 1), .project(id: 2), .project(id: 3)], as: Project.self)  // concurrently, in order
    var activities: [Activity] = []
    for try await page in client.pages(BackerRoute.activities, as: ActivityPage.self) {  // follows next-page URLs
        activities += page.activities
    }
    let categories = try await client.load(Resource(BackerRoute.categories) { String(decoding: $0, as: UTF8.self) })  // any parser
    return (project, discover.projects + three, activities, categories)
}
