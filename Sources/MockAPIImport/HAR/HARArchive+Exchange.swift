import Foundation
import MockAPICore

extension HARArchive.Entry {
    /// The entry as the inference reads it. A multipart body recorded only as `params` keeps them
    /// as its parts; a base64 response body is decoded. HAR bodies are the decoded content, so
    /// the answer's `Content-Encoding` is not kept (`decodingContent`).
    var exchange: RecordedExchange {
        let content = response.content
        var responseBody: [UInt8] = []
        if let text = content?.text, !text.isEmpty {
            responseBody = content?.encoding == "base64" ? Data(base64Encoded: text).map(Array.init) ?? Array(text.utf8) : Array(text.utf8)
        }
        let post = request.postData
        var parts: [RecordedPart]?
        if let params = post?.params, !params.isEmpty {
            parts = params.map { RecordedPart(name: $0.name, fileName: $0.fileName, contentType: $0.contentType, value: $0.fileName == nil ? $0.value : nil) }
        }
        return RecordedExchange(
            method: request.method, url: request.url,
            requestHeaders: (request.headers ?? []).map { HTTPField($0.name, $0.value) },
            requestBody: Array((post?.text ?? "").utf8), parts: parts, requestContentType: post?.mimeType,
            status: response.status, responseHeaders: (response.headers ?? []).map { HTTPField($0.name, $0.value) },
            responseBody: responseBody, responseContentType: content?.mimeType
        ).decodingContent(bodyIsDecoded: true)
    }
}
