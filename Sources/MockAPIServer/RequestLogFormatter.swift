import MockAPICore
import SystemLibc

/// Builds request log lines; runs on the log's queue, never on a request thread.
enum RequestLogFormatter {
    static func line(_ entry: RequestLogEntry, options: RequestLogOptions) -> String {
        switch options.format {
        case .text: text(entry, options: options)
        case .json: json(entry, verbose: options.verbose).serialized
        }
    }

    /// `21:30:01.123 GET /v1/activities?cursor=2 200 activities/page2 0.2ms`, then
    /// `session=ID` for a request served in one, then, for a refusal, two spaces and why; verbose
    /// lines follow with `> request` and `< response` headers.
    static func text(_ entry: RequestLogEntry, options: RequestLogOptions) -> String {
        let status = options.color ? colorized(entry.record.status) : String(entry.record.status)
        var line = "\(localTime(entry.record.receivedAt)) \(entry.record.method) \(target(entry)) \(status) \(servedAs(entry)) \(milliseconds(entry))ms"
        if let session = entry.session { line += " session=" + session }
        if let problem = entry.record.problem { line += "  " + problem }
        guard options.verbose else { return line }
        for header in requestHeaders(entry) { line += "\n    > \(header.name): \(header.value)" }
        for header in responseHeaders(entry) { line += "\n    < \(header.name): \(header.value)" }
        return line
    }

    /// One object per line: `{"time":"2026-11-22T21:30:01.123Z","method":"GET",…,"problem":null}`.
    static func json(_ entry: RequestLogEntry, verbose: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("time", .string(utcTime(entry.record.receivedAt))),
            ("method", .string(entry.record.method)),
            ("path", .string(entry.path)),
        ]
        // Only in a session's lines: the others keep the keys they always had.
        if let session = entry.session { members.append(("session", .string(session))) }
        members += [
            ("query", .string(JournalEntry.encodeQuery(entry.redaction.journaledQuery(entry.record.query)))),
            ("status", .int(entry.record.status)),
            ("contract", entry.record.contract.json),
            ("response", entry.record.response.json),
            ("ms", .double(milliseconds(entry))),
            ("problem", entry.record.problem.json),
        ]
        if verbose {
            members.append(("requestHeaders", .object(JSONObject(requestHeaders(entry).map { ($0.name, .string($0.value)) }))))
            members.append(("responseHeaders", .object(JSONObject(responseHeaders(entry).map { ($0.name, .string($0.value)) }))))
        }
        return .object(JSONObject(members))
    }

    /// The path and, when there was one, the query as the journal shows it.
    private static func target(_ entry: RequestLogEntry) -> String {
        entry.record.query.isEmpty ? entry.path : entry.path + "?" + JournalEntry.encodeQuery(entry.redaction.journaledQuery(entry.record.query))
    }

    /// `user` for its default response, `activities/page2` for a named one, `-` when no contract matched.
    private static func servedAs(_ entry: RequestLogEntry) -> String {
        guard let contract = entry.record.contract else { return "-" }
        guard let response = entry.record.response, response != "default" else { return contract }
        return "\(contract)/\(response)"
    }

    /// Rounded to hundredths: `0.31`.
    private static func milliseconds(_ entry: RequestLogEntry) -> Double {
        (Double(entry.nanoseconds) / 10_000).rounded() / 100
    }

    private static func requestHeaders(_ entry: RequestLogEntry) -> [HTTPField] {
        entry.verbose ? entry.record.headers.forJournal(redacting: entry.redaction).fields : []
    }

    /// The headers mockapi sets on a contract's response (libmicrohttpd adds `Content-Length`
    /// and the like); none for refusals, whose problem says enough.
    private static func responseHeaders(_ entry: RequestLogEntry) -> [HTTPField] {
        guard let contracts = entry.contracts, let name = entry.record.contract, let responseName = entry.record.response,
            let contract = contracts.contracts.first(where: { $0.name == name }),
            let definition = contract.responses.first(where: { $0.name == responseName })
        else { return [] }
        let contentType = definition.contentType.map { [HTTPField("Content-Type", $0)] } ?? []
        return contentType + [HTTPField(Responder.contractHeader, contract.name)] + definition.headers
    }

    /// Green 2xx, cyan 3xx, yellow 4xx, red 5xx.
    private static func colorized(_ status: Int) -> String {
        let code =
            switch status {
            case 200..<300: "32"
            case 300..<400: "36"
            case 400..<500: "33"
            default: "31"
            }
        return "\u{1B}[\(code)m\(status)\u{1B}[0m"
    }

    /// `21:30:01.123`, local time.
    static func localTime(_ epochMilliseconds: Int64) -> String {
        let parts = calendar(epochMilliseconds, local: true)
        return "\(two(parts.time.tm_hour)):\(two(parts.time.tm_min)):\(two(parts.time.tm_sec)).\(three(parts.milliseconds))"
    }

    /// `2026-11-22T21:30:01.123Z`.
    static func utcTime(_ epochMilliseconds: Int64) -> String {
        let parts = calendar(epochMilliseconds, local: false)
        let time = parts.time
        return "\(time.tm_year + 1900)-\(two(time.tm_mon + 1))-\(two(time.tm_mday))T\(two(time.tm_hour)):\(two(time.tm_min)):\(two(time.tm_sec))"
            + ".\(three(parts.milliseconds))Z"
    }

    private static func calendar(_ epochMilliseconds: Int64, local: Bool) -> (time: tm, milliseconds: Int32) {
        var seconds = time_t(epochMilliseconds / 1000)
        var time = tm()
        if local { localtime_r(&seconds, &time) } else { gmtime_r(&seconds, &time) }
        return (time, Int32(epochMilliseconds % 1000))
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func three(_ value: Int32) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }
}
