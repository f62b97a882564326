package import Foundation

/// Encodes an ``Upload`` as a `multipart/form-data` body with exact CRLF framing.
///
/// ```text
/// --BOUNDARY\r\n
/// Content-Disposition: form-data; name="image"; filename="x.jpg"\r\n
/// Content-Type: image/jpeg\r\n
/// \r\n
/// <bytes>\r\n
/// --BOUNDARY--\r\n
/// ```
package struct MultipartBody: Sendable {
    /// The boundary; it must not occur in the file's bytes, hence a fresh random one per request.
    package var boundary: String

    /// Creates an encoder with `boundary`, random by default.
    package init(boundary: String = MultipartBody.randomBoundary()) {
        self.boundary = boundary
    }

    /// A boundary with 128 random bits, far too unlikely to appear inside a file.
    package static func randomBoundary() -> String {
        "ClientKit-" + UUID().uuidString
    }

    /// The request's `Content-Type` header value.
    package var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// The encoded body for `upload`.
    package func encode(_ upload: Upload) -> Data {
        var body = Data()
        body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
        let disposition = "form-data; name=\"\(Self.quoted(upload.partName))\"; filename=\"\(Self.quoted(upload.fileName))\""
        body.append(contentsOf: Array("Content-Disposition: \(disposition)\r\n".utf8))
        body.append(contentsOf: Array("Content-Type: \(upload.contentType)\r\n\r\n".utf8))
        body.append(upload.data)
        body.append(contentsOf: Array("\r\n--\(boundary)--\r\n".utf8))
        return body
    }

    /// Escapes what would end a quoted header parameter, as browsers do (WHATWG form encoding).
    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
