import Foundation
package import MockAPICore

/// One request and the answer it got, as a capture (a HAR entry) or `mockapi record` saw it:
/// what `TrafficInference` learns contracts from.
package struct RecordedExchange: Sendable {
    package var method: String
    /// Absolute: `https://api.example.com/v1/projects?page=2`.
    package var url: String
    package var requestHeaders: [HTTPField]
    /// The clear values of request headers the recorder saw only redacted (a session `Cookie`):
    /// what `SecretScrubber` cuts out of answers that echo them. Never written anywhere.
    package var redactedRequestHeaders: [HTTPField] = []
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
        var text: [UInt8]?
        // A text part's value is kept (up to 4 KiB): a credential in it must not be written anywhere.
        let handle: (MultipartParser.Event) -> Void = { event in
            switch event {
            case .begin(let headers):
                found.append(RecordedPart(name: headers.name, fileName: headers.filename, contentType: headers.contentType))
                text = headers.filename == nil ? [] : nil
            case .data(let bytes):
                if text != nil, text!.count + bytes.count <= 4096 { text! += bytes } else { text = nil }
            case .end:
                if let bytes = text, !found.isEmpty { found[found.count - 1].value = String(decoding: bytes, as: UTF8.self) }
                text = nil
            }
        }
        do {
            try requestBody.withUnsafeBytes { try parser.feed($0, handle) }
            try parser.finish(handle)
        } catch { return nil }
        return found
    }
}

/// A multipart part: its name, for a file its name and type, for a text its value.
package struct RecordedPart: Sendable, Equatable {
    package var name: String
    package var fileName: String?
    package var contentType: String?
    /// A text part's value, when it was read (a short one): what a credential check looks at.
    package var value: String?

    package init(name: String, fileName: String? = nil, contentType: String? = nil, value: String? = nil) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.value = value
    }
}
