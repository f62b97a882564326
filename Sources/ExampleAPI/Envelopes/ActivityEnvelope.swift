public import ClientKit

/// One page of the activity feed and the URL of the next.
public struct ActivityEnvelope: Codable, Sendable, Equatable {
    public var activities: [Activity]
    public var urls: URLs

    /// Paging links.
    public struct URLs: Codable, Sendable, Equatable {
        public var api: API

        /// API links.
        public struct API: Codable, Sendable, Equatable {
            /// The next page, an absolute URL (`https://api.example.com/v1/activities?cursor=2`); `nil` on the last page.
            public var moreActivities: String?
        }
    }
}

extension ActivityEnvelope: PaginatedResponse {
    public var nextPageURL: String? { urls.api.moreActivities }
}
