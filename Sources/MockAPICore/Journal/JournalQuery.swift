/// Which journal entries a reader wants: `GET /__mockapi/requests?since=ID&limit=N&contract=…`.
///
/// Filters combine (all must hold); `limit` keeps the oldest matches after `since`, so a reader
/// pages forward by passing the last id it saw.
package struct JournalQuery: Sendable, Equatable {
    /// Only entries with a larger id.
    package var since: Int?
    /// At most this many entries.
    package var limit: Int?
    /// Only entries answered by this contract (served or refused).
    package var contract: String?
    /// Only requests no contract matched (404, 405, and refusals before routing).
    package var unmatched = false
    /// Only requests a contract matched but refused: violations (422) and unreadable bodies (400).
    package var violations = false
    /// Only entries carrying this header (name in any case) with exactly this value.
    package var header: HTTPField?
    /// Only this method (`GET`).
    package var method: String?
    /// Only this path, exactly as received (`/v1/projects/42`), or, ending in `*`, starting so (`/v1/projects/*`).
    package var path: String?
    /// Only this status.
    package var status: Int?

    package init(
        since: Int? = nil, limit: Int? = nil, contract: String? = nil, unmatched: Bool = false,
        violations: Bool = false, header: HTTPField? = nil,
        method: String? = nil, path: String? = nil, status: Int? = nil
    ) {
        self.since = since
        self.limit = limit
        self.contract = contract
        self.unmatched = unmatched
        self.violations = violations
        self.header = header
        self.method = method
        self.path = path
        self.status = status
    }

    package static func == (lhs: JournalQuery, rhs: JournalQuery) -> Bool {
        lhs.since == rhs.since && lhs.limit == rhs.limit && lhs.contract == rhs.contract && lhs.unmatched == rhs.unmatched
            && lhs.violations == rhs.violations && lhs.header?.name == rhs.header?.name && lhs.header?.value == rhs.header?.value
            && lhs.method == rhs.method && lhs.path == rhs.path && lhs.status == rhs.status
    }

    /// Why a query string cannot be read.
    package struct Invalid: Error, Equatable {
        package var message: String
    }

    /// Reads the admin endpoint's decoded query pairs.
    package init(pairs: [QueryArgument]) throws(Invalid) {
        func count(_ name: String, _ value: String?) throws(Invalid) -> Int {
            guard let value, let number = Int(value), number >= 0 else {
                throw Invalid(message: "\(name) must be a non-negative integer, got \(value.map { "\"\($0)\"" } ?? "nothing")")
            }
            return number
        }
        for argument in pairs {
            let (name, value) = (argument.name, argument.value)
            switch name {
            case "since": since = try count(name, value)
            case "limit": limit = try count(name, value)
            case "contract": contract = value ?? ""
            case "unmatched": unmatched = value != "false"
            case "violations": violations = value != "false"
            case "method": method = value?.uppercased() ?? ""
            case "path": path = value ?? ""
            case "status": status = try count(name, value)
            case "header":
                guard let value, let colon = value.firstIndex(of: ":") else {
                    throw Invalid(message: "header must be NAME:VALUE, got \"\(value ?? "")\"")
                }
                let headerValue = value[value.index(after: colon)...].drop { $0 == " " }
                header = HTTPField(String(value[..<colon]), String(headerValue))
            default:
                throw Invalid(message: "unknown parameter \"\(name)\" (known: since, limit, contract, method, path, status, unmatched, violations, header, session)")
            }
        }
    }

    /// The filters other than `since` and `limit`, on a decoded entry.
    func admits(_ entry: JournalEntry) -> Bool {
        if let contract, entry.contract != contract { return false }
        if unmatched, entry.contract != nil { return false }
        if violations, entry.contract == nil || entry.response != nil { return false }
        if let header, entry.headers.value(for: header.name) != header.value { return false }
        if let method, entry.method != method { return false }
        if let status, entry.status != status { return false }
        if let path {
            if path.hasSuffix("*") { if !entry.path.hasPrefix(path.dropLast()) { return false } } else if entry.path != path { return false }
        }
        return true
    }
}
