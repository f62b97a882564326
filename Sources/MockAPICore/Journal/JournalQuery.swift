/// Which journal entries a reader wants: `GET /__mockapi/requests?since=ID&limit=N&contract=…`.
///
/// Filters combine (all must hold); `limit` keeps the oldest matches after `since`, so a reader
/// pages forward by passing the last id it saw.
public struct JournalQuery: Sendable, Equatable {
    /// Only entries with a larger id.
    public var since: Int?
    /// At most this many entries.
    public var limit: Int?
    /// Only entries answered by this contract (served or refused).
    public var contract: String?
    /// Only requests no contract matched (404, 405, and refusals before routing).
    public var unmatched = false
    /// Only requests a contract matched but refused: violations (422) and unreadable bodies (400).
    public var violations = false
    /// Only entries carrying this header (name in any case) with exactly this value.
    public var header: (name: String, value: String)?

    public init(since: Int? = nil, limit: Int? = nil, contract: String? = nil, unmatched: Bool = false,
                violations: Bool = false, header: (name: String, value: String)? = nil) {
        self.since = since
        self.limit = limit
        self.contract = contract
        self.unmatched = unmatched
        self.violations = violations
        self.header = header
    }

    public static func == (lhs: JournalQuery, rhs: JournalQuery) -> Bool {
        lhs.since == rhs.since && lhs.limit == rhs.limit && lhs.contract == rhs.contract && lhs.unmatched == rhs.unmatched
            && lhs.violations == rhs.violations && lhs.header?.name == rhs.header?.name && lhs.header?.value == rhs.header?.value
    }

    /// Why a query string cannot be read.
    public struct Invalid: Error, Equatable {
        public var message: String
    }

    /// Reads the admin endpoint's decoded query pairs.
    public init(pairs: [(name: String, value: String?)]) throws(Invalid) {
        func count(_ name: String, _ value: String?) throws(Invalid) -> Int {
            guard let value, let number = Int(value), number >= 0 else {
                throw Invalid(message: "\(name) must be a non-negative integer, got \(value.map { "\"\($0)\"" } ?? "nothing")")
            }
            return number
        }
        for (name, value) in pairs {
            switch name {
            case "since": since = try count(name, value)
            case "limit": limit = try count(name, value)
            case "contract": contract = value ?? ""
            case "unmatched": unmatched = value != "false"
            case "violations": violations = value != "false"
            case "header":
                guard let value, let colon = value.firstIndex(of: ":") else {
                    throw Invalid(message: "header must be NAME:VALUE, got \"\(value ?? "")\"")
                }
                let headerValue = value[value.index(after: colon)...].drop { $0 == " " }
                header = (String(value[..<colon]), String(headerValue))
            default:
                throw Invalid(message: "unknown parameter \"\(name)\" (known: since, limit, contract, unmatched, violations, header)")
            }
        }
    }

    /// The filters other than `since` and `limit`, on a decoded entry.
    func admits(_ entry: JournalEntry) -> Bool {
        if let contract, entry.contract != contract { return false }
        if unmatched, entry.contract != nil { return false }
        if violations, entry.contract == nil || entry.response != nil { return false }
        if let header, entry.headers.value(for: header.name) != header.value { return false }
        return true
    }
}
