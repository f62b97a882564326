public import ClientKit

/// One page of discovery results and the URL of the next.
public struct DiscoverEnvelope: Codable, Sendable, Equatable {
    public var projects: [Project]
    public var urls: URLs

    /// Paging links.
    public struct URLs: Codable, Sendable, Equatable {
        public var api: API

        /// API links.
        public struct API: Codable, Sendable, Equatable {
            /// The next page; `nil` on the last page.
            public var moreProjects: String?
        }
    }
}

extension DiscoverEnvelope: PaginatedResponse {
    public var nextPageURL: String? { urls.api.moreProjects }
}
