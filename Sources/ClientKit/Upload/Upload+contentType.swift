public import Foundation

extension Upload {
    /// Content types by lowercased file extension.
    private static let typesByExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "heic": "image/heic", "webp": "image/webp",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime",
        "json": "application/json", "pdf": "application/pdf", "txt": "text/plain",
    ]

    /// The content type for a file: by extension, else by signature bytes (JPEG, PNG, GIF,
    /// MP4/QuickTime), else `application/octet-stream`.
    ///
    /// ```swift
    /// Upload.detectContentType(fileName: "IMG_0001", data: jpegBytes)  // "image/jpeg"
    /// ```
    public static func detectContentType(fileName: String, data: Data) -> String {
        let fileExtension = (fileName as NSString).pathExtension.lowercased()
        return typesByExtension[fileExtension] ?? sniffContentType(data) ?? "application/octet-stream"
    }

    /// Recognizes a file by its leading bytes.
    static func sniffContentType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if starts(with: Array("GIF8".utf8)) { return "image/gif" }
        // ISO base media files: a box size, then "ftyp" and the major brand; "qt  " is QuickTime.
        if starts(with: Array("ftyp".utf8), at: 4) {
            return starts(with: Array("qt  ".utf8), at: 8) ? "video/quicktime" : "video/mp4"
        }
        return nil
    }
}
