/// A page of a list that names the next page's URL, for ``APIClient/pages(_:as:)``.
///
/// ```swift
/// struct ActivityPage: PaginatedResponse {
///     var activities: [Activity]
///     var urls: URLs
///     var nextPageURL: String? { urls.api.moreActivities }
/// }
/// ```
public protocol PaginatedResponse: Decodable, Sendable {
    /// The next page: an absolute URL or a path below the base URL; `nil` or empty on the last page.
    var nextPageURL: String? { get }
}
