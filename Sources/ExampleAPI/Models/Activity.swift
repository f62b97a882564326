public import Foundation

/// One entry of the signed-in user's activity feed: a backing, an update, a launch, …
public struct Activity: Codable, Sendable, Equatable {
    public var id: Int
    public var category: Category
    public var createdAt: Date
    /// The project the activity is about; `nil` for activities about people (a follow).
    public var project: Project?
    /// Who did it; `nil` when the project itself is the subject (an update, a success).
    public var user: User?
    /// The update, for `.update` activities.
    public var update: Update?

    /// What happened.
    public enum Category: String, Codable, Sendable, CaseIterable {
        case backing, update, success, failure, launch, follow, cancellation, suspension
        case commentPost = "comment_post"
        case commentProject = "comment_project"
    }
}
