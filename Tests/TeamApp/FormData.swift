import Foundation

/// The team's own multipart/form-data encoder (no ClientKit), framed as RFC 7578 says.
struct FormData {
    let boundary = "team.boundary.\(UUID().uuidString)"
    private var body = Data()

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func append(file: Data, name: String, fileName: String, mimeType: String?) {
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\n".utf8))
        if let mimeType { body.append(Data("Content-Type: \(mimeType)\r\n".utf8)) }
        body.append(Data("\r\n".utf8))
        body.append(file)
        body.append(Data("\r\n".utf8))
    }

    func encoded() -> Data {
        body + Data("--\(boundary)--\r\n".utf8)
    }
}
