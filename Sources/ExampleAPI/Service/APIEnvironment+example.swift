public import ClientKit
import Foundation

extension APIEnvironment {
    /// The live API.
    public static let production = APIEnvironment(name: "production", baseURL: URL(string: "https://api.kickstarter.com")!)
    /// The staging API, for pre-release builds.
    public static let staging = APIEnvironment(name: "staging", baseURL: URL(string: "https://api-staging.kickstarter.com")!)
}
