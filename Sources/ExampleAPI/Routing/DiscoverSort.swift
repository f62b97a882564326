/// The orders `GET /v1/discover` can sort projects in.
public enum DiscoverSort: String, Sendable, CaseIterable {
    /// Kickstarter's blend of popularity and freshness.
    case magic
    case popularity
    case newest
    /// Ending soonest first.
    case endDate = "end_date"
}
