public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A team's own networking layer, written without ClientKit the way Alamofire routers are:
/// one enum, each case knowing its method, path, query and body, turned into a `URLRequest`.
/// ``TeamClientBugs`` plants one client bug at a time for the mutation tests.
public enum TeamRouter: Sendable {
    case currentUser
    case backing(projectId: Int, backerId: Int)
    case updateBacking(projectId: Int, backerId: Int, amount: Double, rewardId: Int)
    case activities(cursor: Int?)
    case uploadDraftImage(projectId: Int, image: Data, fileName: String)

    var method: String {
        switch self {
        case .currentUser, .backing, .activities: "GET"
        case .updateBacking: "PUT"
        case .uploadDraftImage: "POST"
        }
    }

    func path(bugs: TeamClientBugs) -> String {
        switch self {
        case .currentUser: "/v1/users/self"
        case let .backing(projectId, backerId), let .updateBacking(projectId, backerId, _, _):
            "/v1/projects/\(projectId)/\(bugs.contains(.misspelledPath) ? "backer" : "backers")/\(backerId)"
        case .activities: "/v1/activities"
        case let .uploadDraftImage(projectId, _, _): "/v1/projects/\(projectId)/updates/draft/images"
        }
    }

    public func asURLRequest(baseURL: URL) throws -> URLRequest {
        try asURLRequest(baseURL: baseURL, bugs: [])
    }

    func asURLRequest(baseURL: URL, bugs: TeamClientBugs) throws -> URLRequest {
        var components = URLComponents(url: baseURL.appendingPathComponent(path(bugs: bugs)), resolvingAgainstBaseURL: false)!
        if case .activities(let cursor?) = self { components.queryItems = [URLQueryItem(name: "cursor", value: String(cursor))] }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        switch self {
        case let .updateBacking(_, _, amount, rewardId):
            let rewardKey = bugs.contains(.renamedBodyKey) ? "rewardId" : "reward_id"
            request.httpBody = try JSONSerialization.data(withJSONObject: ["amount": amount, rewardKey: rewardId], options: .sortedKeys)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case let .uploadDraftImage(_, image, fileName):
            var form = FormData()
            let image = bugs.contains(.pngLabelledJPEG) ? Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]) : image
            form.append(file: image, name: "image", fileName: fileName, mimeType: bugs.contains(.noPartContentType) ? nil : "image/jpeg")
            request.httpBody = form.encoded()
            request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        default:
            break
        }
        return request
    }
}

/// One planted client bug each; the mutation tests turn them on one at a time.
public struct TeamClientBugs: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The decoder forgets `.convertFromSnakeCase`.
    public static let noSnakeCase = TeamClientBugs(rawValue: 1 << 0)
    /// The auth interceptor stops adding the token.
    public static let noToken = TeamClientBugs(rawValue: 1 << 1)
    /// The upload part goes out without a Content-Type.
    public static let noPartContentType = TeamClientBugs(rawValue: 1 << 2)
    /// The JSON body spells `reward_id` as `rewardId`.
    public static let renamedBodyKey = TeamClientBugs(rawValue: 1 << 3)
    /// The router writes `/backer/` for `/backers/`.
    public static let misspelledPath = TeamClientBugs(rawValue: 1 << 4)
    /// The decoder reads dates as ISO 8601 strings; the API sends seconds since 1970.
    public static let iso8601Dates = TeamClientBugs(rawValue: 1 << 5)
    /// The upload sends PNG bytes under `image/jpeg` (a picker's output, labelled by the file name).
    public static let pngLabelledJPEG = TeamClientBugs(rawValue: 1 << 6)
}
