public import Foundation

/// One file sent as a `multipart/form-data` part: part name, file name, content type and bytes.
///
/// ```swift
/// let upload = try Upload.file(URL(filePath: "cover.jpg"), partName: "image")
/// Endpoint(.post, "/v1/projects/1/updates/draft/images", body: .upload(upload))
/// ```
public struct Upload: Sendable, Equatable {
    /// The form field name (`image`, `video`).
    public var partName: String
    /// The file name sent in `Content-Disposition`.
    public var fileName: String
    /// The part's `Content-Type`.
    public var contentType: String
    /// The file's bytes.
    public var data: Data

    /// Creates an upload; a `nil` content type is detected from the file name's extension,
    /// then from the bytes' signature, else `application/octet-stream`.
    public init(partName: String, fileName: String, contentType: String? = nil, data: Data) {
        self.partName = partName
        self.fileName = fileName
        self.contentType = contentType ?? Upload.detectContentType(fileName: fileName, data: data)
        self.data = data
    }

    /// Reads a file from disk; its content type is detected as in ``init(partName:fileName:contentType:data:)``.
    public static func file(_ url: URL, partName: String, contentType: String? = nil) throws -> Upload {
        Upload(partName: partName, fileName: url.lastPathComponent, contentType: contentType, data: try Data(contentsOf: url))
    }
}
