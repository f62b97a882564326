public import Foundation

/// A photo or video picked for upload: file name, bytes and, optionally, a content type.
///
/// The route decides the multipart part name (`image`, `video`); the file only brings its
/// contents. A `nil` content type is detected from the extension, then from the bytes.
///
/// ```swift
/// let photo = try MediaFile(contentsOf: URL(filePath: "/tmp/cover.jpg"))
/// try await service.uploadDraftImage(photo, toDraft: draft)
/// ```
public struct MediaFile: Sendable, Equatable {
    /// The file name sent with the part (`cover.jpg`).
    public var fileName: String
    /// The part's content type; `nil` to detect it.
    public var contentType: String?
    public var data: Data

    /// Creates a file from bytes in memory.
    public init(fileName: String, contentType: String? = nil, data: Data) {
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }

    /// Reads a file from disk.
    public init(contentsOf url: URL, contentType: String? = nil) throws {
        self.init(fileName: url.lastPathComponent, contentType: contentType, data: try Data(contentsOf: url))
    }
}
