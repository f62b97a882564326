public import Foundation

/// The app's own deep-link matcher, given to the runner: every web link the fixtures carry (on
/// `hosts`, or anywhere when none are given) must be one the app can open.
///
/// ```swift
/// VerifyOptions(deepLinks: DeepLinkCheck(hosts: ["www.kickstarter.com"]) { url in Navigation.match(url) != nil })
/// ```
public struct DeepLinkCheck: Sendable {
    /// The web hosts whose links the app opens itself; nil for every http(s) link.
    public var hosts: Set<String>?
    public var accepts: @Sendable (URL) -> Bool

    public init(hosts: [String]? = nil, _ accepts: @escaping @Sendable (URL) -> Bool) {
        self.hosts = hosts.map { Set($0.map { $0.lowercased() }) }
        self.accepts = accepts
    }

    /// Whether `url` is a link this check answers for.
    func covers(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        guard let hosts else { return true }
        return url.host.map { hosts.contains($0.lowercased()) } ?? false
    }
}

/// A link in a response body that leads nowhere: an API link no contract serves, or a web link
/// the app's deep-link matcher refuses.
public struct DeadLink: Sendable, Equatable {
    /// The fixture file (or contract file and response) that holds it.
    public var source: String
    /// Where in the body: `urls.web.project`, `activities[0].project.urls.web.project`.
    public var jsonPath: String
    public var url: String
    public var reason: String

    public var description: String { "\(source): \(jsonPath): \(url): \(reason)" }

    /// The dead links in every response of `set`: API links no contract serves and, with
    /// `deepLinks`, web links the app's matcher refuses.
    package static func find(in set: ContractSet, deepLinks: DeepLinkCheck? = nil) -> [DeadLink] {
        FixtureLinks.dead(in: set, deepLinks: deepLinks)
    }
}
