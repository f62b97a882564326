import Foundation
package import MockAPICore

/// One request and the answer it got, as a capture (a HAR entry) or `mockapi record` saw it:
/// what `TrafficInference` learns contracts from.
package struct RecordedExchange: Sendable {
    package var method: String
    /// Absolute: `https://api.example.com/v1/projects?page=2`.
    package var url: String
    package var requestHeaders: [HTTPField]
    package var requestBody: [UInt8]
    /// Parts as a capture listed them (HAR `postData.params`); nil to read them from the body.
    package var parts: [RecordedPart]?
    /// The request body's type when the headers do not say it (HAR `postData.mimeType`).
    package var requestContentType: String?
    package var status: Int
    package var responseHeaders: [HTTPField]
    package var responseBody: [UInt8]
    /// The response body's type when the headers do not say it (HAR `content.mimeType`).
    package var responseContentType: String?

    package init(
        method: String, url: String, requestHeaders: [HTTPField] = [], requestBody: [UInt8] = [],
        parts: [RecordedPart]? = nil, requestContentType: String? = nil, status: Int,
        responseHeaders: [HTTPField] = [], responseBody: [UInt8] = [], responseContentType: String? = nil
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.parts = parts
        self.requestContentType = requestContentType
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseContentType = responseContentType
    }

    package func requestHeader(_ name: String) -> String? {
        requestHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var requestMediaType: String? {
        (requestHeader("Content-Type") ?? requestContentType).map(MediaType.essence)
    }

    var responseMediaType: String {
        MediaType.essence(
            of: responseContentType
                ?? responseHeaders.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value ?? "")
    }

    /// The parts of a multipart body: as listed, else parsed from the bytes; nil for other bodies.
    var multipartParts: [RecordedPart]? {
        if let parts { return parts }
        guard requestMediaType == "multipart/form-data",
            let type = requestHeader("Content-Type") ?? requestContentType,
            let boundary = MediaType.parameter("boundary", in: type),
            var parser = try? MultipartParser(boundary: boundary)
        else { return nil }
        var found: [RecordedPart] = []
        let handle: (MultipartParser.Event) -> Void = { event in
            if case .begin(let headers) = event {
                found.append(RecordedPart(name: headers.name, fileName: headers.filename, contentType: headers.contentType))
            }
        }
        do {
            try requestBody.withUnsafeBytes { try parser.feed($0, handle) }
            try parser.finish(handle)
        } catch { return nil }
        return found
    }
}

/// A multipart part: its name, and for a file its name and type.
package struct RecordedPart: Sendable, Equatable {
    package var name: String
    package var fileName: String?
    package var contentType: String?

    package init(name: String, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
    }
}
