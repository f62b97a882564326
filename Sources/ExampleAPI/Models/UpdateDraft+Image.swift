public import Foundation

extension UpdateDraft {
    /// An image attached to an update draft.
    public struct Image: Codable, Sendable, Equatable {
        public var id: Int
        public var thumb: URL
        public var full: URL
    }
}
