/// The parts of a HAR 1.2 file (Proxyman, Charles, browser dev tools) the importer reads.
/// Everything else in an entry (timings, cookies, cache) is ignored.
struct HARArchive: Decodable {
    var log: Log

    struct Log: Decodable {
        var entries: [Entry]
    }

    struct Entry: Decodable {
        var request: Request
        var response: Response
    }

    struct NameValue: Decodable {
        var name: String
        var value: String

        init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        private enum Keys: String, CodingKey { case name, value }

        /// Polly.js writes a header sent several times as one entry with an array of values.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            name = try container.decode(String.self, forKey: .name)
            if let values = try? container.decode([String].self, forKey: .value) {
                value = values.joined(separator: ", ")
            } else {
                value = try container.decode(String.self, forKey: .value)
            }
        }
    }

    struct Request: Decodable {
        var method: String
        var url: String
        var headers: [NameValue]?
        var queryString: [NameValue]?
        var postData: PostData?
    }

    struct PostData: Decodable {
        var mimeType: String?
        var text: String?
        var params: [Param]?
    }

    struct Param: Decodable {
        var name: String
        var value: String?
        var fileName: String?
        var contentType: String?
    }

    struct Response: Decodable {
        var status: Int
        var headers: [NameValue]?
        var content: Content?
    }

    struct Content: Decodable {
        var mimeType: String?
        var text: String?
        /// `base64` when `text` holds encoded bytes.
        var encoding: String?
    }
}
