public import Foundation

/// Where a universal link takes the app: the web URLs the API hands out (`urls.web.project`,
/// `urls.web.user`, an update's `urls.web.update`) matched against a table of URL templates, as
/// ios-oss's `Navigation.match` does. A link no template matches opens nothing: a dead link.
public enum Navigation: Equatable, Sendable {
    case discover
    case project(slug: String)
    case projectUpdate(projectSlug: String, updateId: Int)
    case profile(username: String)

    /// The web host whose links the app opens itself.
    public static let host = "www.kickstarter.com"

    /// The screen for `url`, or nil when the app cannot open it.
    public static func match(_ url: URL) -> Navigation? {
        guard url.scheme?.lowercased() == "https", url.host?.lowercased() == host else { return nil }
        let segments = url.path.split(separator: "/").map(String.init)
        for (template, screen) in templates {
            if let values = bind(template, to: segments), let navigation = screen(values) { return navigation }
        }
        return nil
    }

    /// `:name` segments bind a value; others must equal the URL's segment.
    private static let templates: [(String, @Sendable ([String: String]) -> Navigation?)] = [
        ("/discover", { _ in .discover }),
        ("/projects/:slug", { .project(slug: $0["slug"]!) }),
        ("/projects/:slug/posts/:id", { values in Int(values["id"]!).map { .projectUpdate(projectSlug: values["slug"]!, updateId: $0) } }),
        ("/profile/:username", { .profile(username: $0["username"]!) }),
    ]

    private static func bind(_ template: String, to segments: [String]) -> [String: String]? {
        let parts = template.split(separator: "/").map(String.init)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix(":") { values[String(part.dropFirst())] = segment } else if part != segment { return nil }
        }
        return values
    }
}
