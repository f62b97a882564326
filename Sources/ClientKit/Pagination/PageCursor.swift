import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The walk behind ``APIClient/pages(_:as:)``: where the next page is, and fetching it.
actor PageCursor<Page: PaginatedResponse> {
    private let client: APIClient
    private let firstEndpoint: Endpoint
    /// The next page's call and its URL; `nil` on the first call (and after the last page, with `isDone`).
    private var upcoming: (endpoint: Endpoint, url: URL)?
    private var isDone = false

    init(client: APIClient, first: Endpoint) {
        self.client = client
        self.firstEndpoint = first
    }

    /// The next page, or `nil` once a page named no successor.
    func next() async throws -> Page? {
        guard !isDone else { return nil }
        // Mark done first: a failed page ends the walk rather than repeating it.
        isDone = true
        let (endpoint, request) =
            try upcoming.map { ($0.endpoint, try client.urlRequest($0.endpoint, at: $0.url)) }
            ?? (firstEndpoint, try client.urlRequest(for: firstEndpoint))
        let (data, _) = try await client.perform(request, expectingJSON: true)
        let page = try client.decode(Page.self, from: data, endpoint: endpoint.description)
        if let reference = page.nextPageURL, !reference.isEmpty {
            let url = try client.url(resolving: reference)
            upcoming = (Endpoint(.get, Self.pathAndQuery(of: url), headers: firstEndpoint.headers), url)
            isDone = false
        }
        return page
    }

    /// `/path?query` of `url`, to name a next-page call in error messages.
    private static func pathAndQuery(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? url.path
        return path + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
