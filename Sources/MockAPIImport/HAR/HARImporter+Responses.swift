import Foundation
import MockAPICore

extension HARImporter {
    /// One named response per distinct (status, body). The first 2xx answer is `default`; another
    /// answer of the same status gets a `when` on the query that produced it (`page_2` for
    /// `?page=2`) when that query differs, so pagination replays by itself.
    static func responses(for entries: [HARArchive.Entry], folder: String, contract: String) -> ([ContractDraft.Response], [ImportedSet.Fixture]) {
        struct Answer {
            var status: Int
            var body: [UInt8]
            var mediaType: String
            var query: [(name: String, value: String)]
        }
        var answers: [Answer] = []
        for entry in entries {
            let body = bodyBytes(entry.response.content)
            let mediaType = MediaType.essence(of: entry.response.content?.mimeType ?? "")
            if !answers.contains(where: { $0.status == entry.response.status && $0.body == body }) {
                answers.append(Answer(status: entry.response.status, body: body, mediaType: mediaType, query: queryItems(entry)))
            }
        }
        let defaultIndex = answers.firstIndex { (200..<300).contains($0.status) } ?? 0
        // `default` first: it is the one served when nothing else selects.
        let ordered = [answers[defaultIndex]] + answers.enumerated().filter { $0.offset != defaultIndex }.map(\.element)

        var responses: [ContractDraft.Response] = []
        var fixtures: [ImportedSet.Fixture] = []
        var taken: Set<String> = ["default"]
        var whens: [[String]] = []
        for (offset, answer) in ordered.enumerated() {
            var name = "default"
            var when: [(name: String, value: String)]?
            if offset > 0 {
                let differing = answer.query.filter { item in
                    !item.name.hasSuffix("[]") && !ordered[0].query.contains { $0.name == item.name && $0.value == item.value }
                }
                let key = differing.map { "\($0.name)=\($0.value)" }
                if !differing.isEmpty, !whens.contains(key) {
                    when = differing
                    whens.append(key)
                }
                let base = differing.count == 1 && answer.status == ordered[0].status
                    ? Naming.snakeCase("\(differing[0].name)_\(differing[0].value)")
                    : Naming.responseName(forStatus: answer.status)
                name = Naming.unique(base, in: &taken)
            }
            var response = ContractDraft.Response(name: name, status: answer.status)
            response.whenQuery = when
            if !answer.body.isEmpty {
                let (bytes, fileExtension) = fixtureContent(answer.body, mediaType: answer.mediaType)
                if let existing = fixtures.first(where: { $0.bytes == bytes }) {
                    response.fixture = existing.path
                } else {
                    let path = "\(folder)/\(contract)\(name == "default" ? "" : "_" + name).\(fileExtension)"
                    fixtures.append(ImportedSet.Fixture(path: path, bytes: bytes))
                    response.fixture = path
                }
            }
            responses.append(response)
        }
        return (responses, fixtures)
    }

    private static func bodyBytes(_ content: HARArchive.Content?) -> [UInt8] {
        guard let text = content?.text, !text.isEmpty else { return [] }
        if content?.encoding == "base64", let data = Data(base64Encoded: text) { return Array(data) }
        return Array(text.utf8)
    }

    /// JSON (by type, or because it parses as JSON) pretty-printed; anything else kept as recorded,
    /// with the extension mockapi serves as that type.
    private static func fixtureContent(_ body: [UInt8], mediaType: String) -> ([UInt8], String) {
        let declaredJSON = mediaType == "application/json" || mediaType.hasSuffix("+json")
        if declaredJSON || mediaType.isEmpty || mediaType == "text/plain", let value = try? JSONParser.parse(body),
           declaredJSON || value.objectValue != nil || value.typeName == "array" {
            return (Array((value.prettySerialized + "\n").utf8), "json")
        }
        return (body, fileExtension(forMediaType: mediaType))
    }

    static func fileExtension(forMediaType type: String) -> String {
        switch type {
        case "text/plain": "txt"
        case "text/html": "html"
        case "application/xml", "text/xml": "xml"
        case "text/csv": "csv"
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/svg+xml": "svg"
        case "video/mp4": "mp4"
        case "video/quicktime": "mov"
        case "application/pdf": "pdf"
        default: "bin"
        }
    }
}
