public import Foundation

extension UpdateDraft {
    /// The video attached to an update draft; it is transcoded after upload.
    public struct Video: Codable, Sendable, Equatable {
        public var id: Int
        public var status: Status
        /// A still from the video.
        public var frame: URL

        /// Where transcoding is.
        public enum Status: String, Codable, Sendable, CaseIterable {
            case processing, successful, failed
        }
    }
}
