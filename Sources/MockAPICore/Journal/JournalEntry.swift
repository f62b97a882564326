/// What arrived and what was answered, for one request: the journal's unit.
public struct JournalEntry: Sendable, Equatable {
    public var id: Int = 0
    /// Milliseconds since 1970 when the request's headers arrived.
    public var receivedAt: Int64
    public var method: String
    public var path: String
    /// The query as sent, re-encoded from its decoded pairs (`a=1&ids%5B%5D=2`).
    public var query: String
    public var headers: HeaderFields
    public var bodyBytes: Int
    public var parts: [ReceivedPart]
    /// Nil when no contract matched.
    public var contract: String?
    /// The named response served, when one was.
    public var response: String?
    public var status: Int
    /// Why mockapi refused the request (no contract, the violations, an unreadable body); nil when served.
    public var problem: String?

    package init(
        receivedAt: Int64, method: String, path: String, query: String, headers: HeaderFields,
        bodyBytes: Int, parts: [ReceivedPart], contract: String?, response: String?, status: Int, problem: String? = nil
    ) {
        self.receivedAt = receivedAt
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.contract = contract
        self.response = response
        self.status = status
        self.problem = problem
    }

    public static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        lhs.id == rhs.id && lhs.receivedAt == rhs.receivedAt && lhs.method == rhs.method && lhs.path == rhs.path
            && lhs.query == rhs.query && lhs.headers == rhs.headers && lhs.bodyBytes == rhs.bodyBytes
            && lhs.parts == rhs.parts && lhs.contract == rhs.contract && lhs.response == rhs.response && lhs.status == rhs.status
            && lhs.problem == rhs.problem
    }

    package var json: JSONValue {
        [
            "id": .int(id),
            "receivedAt": .int(Int(receivedAt)),
            "method": .string(method),
            "path": .string(path),
            "query": .string(query),
            "headers": .object(JSONObject(headers.pairs.map { ($0.name, .string($0.value)) })),
            "bodyBytes": .int(bodyBytes),
            "parts": .array(parts.map(\.json)),
            "contract": contract.json,
            "response": response.json,
            "status": .int(status),
            "problem": problem.json,
        ]
    }
}

extension JournalEntry {
    /// Re-encodes decoded query pairs the way a client would send them.
    package static func encodeQuery(_ pairs: [QueryArgument]) -> String {
        if pairs.isEmpty { return "" }
        return pairs.map { argument in
            argument.value.map { "\(percentEncode(argument.name))=\(percentEncode($0))" } ?? percentEncode(argument.name)
        }.joined(separator: "&")
    }

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "["), UInt8(ascii: "]"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
