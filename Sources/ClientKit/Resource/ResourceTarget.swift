import Foundation

/// What a ``Resource`` requests: an endpoint below the base URL, or an absolute URL.
enum ResourceTarget: Sendable {
    case endpoint(Endpoint)
    case url(URL)
}
