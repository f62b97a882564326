import Foundation
import MockAPICore

/// What every recorded request of a contract had in common: its query keys, headers and body.
extension TrafficInference {
    /// The query items sent, in order, names and values percent-decoded (`+` as a space).
    static func queryItems(_ components: URLComponents) -> [(name: String, value: String)] {
        (components.percentEncodedQueryItems ?? []).map { item in
            let value = item.value ?? ""
            return (
                item.name.removingPercentEncoding ?? item.name,
                value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
            )
        }
    }

    /// The body as the mock reads it for a `when`: a JSON body parsed (`json`), a form's fields
    /// (as a capture listed them when it kept no text), a multipart body (its parts unread).
    static func serverBody(_ exchange: RecordedExchange, json: JSONValue?) -> IncomingRequest.Body {
        if let json { return .json(json) }
        switch exchange.requestMediaType {
        case MediaType.form?:
            if exchange.requestBody.isEmpty, let parts = exchange.parts { return .form(parts.map { QueryArgument($0.name, $0.value ?? "") }) }
            return exchange.requestBody.isEmpty ? .none : .form(exchange.requestBody.withUnsafeBytes(QueryString.arguments))
        case "multipart/form-data"?:
            return .multipart([])
        default:
            return exchange.requestBody.isEmpty ? .none : .other(bytes: exchange.requestBody.count)
        }
    }

    /// The `Content-Type` the mock sees: the header, even on a request without a body.
    static func sentContentType(_ exchange: RecordedExchange) -> String? {
        exchange.requestHeader("Content-Type") ?? (exchange.requestBody.isEmpty && exchange.parts == nil ? nil : exchange.requestContentType)
    }

    /// Every key seen: required when every request sent it, typed when every value agrees, `key[]`
    /// as an array, `repeated` when one request sent a plain key more than once.
    static func queryExpectations(_ entries: [Observed]) -> [ContractDraft.Query] {
        var order: [String] = []
        var seen: [String: (entries: Int, values: [String], array: Bool, repeated: Bool)] = [:]
        for entry in entries {
            var countHere: [String: Int] = [:]
            for (name, value) in entry.query {
                let array = name.hasSuffix("[]")
                let key = array ? String(name.dropLast(2)) : name
                if seen[key] == nil {
                    order.append(key)
                    seen[key] = (0, [], false, false)
                }
                seen[key]!.values.append(value)
                seen[key]!.array = seen[key]!.array || array
                countHere[key, default: 0] += 1
                if countHere[key] == 1 { seen[key]!.entries += 1 }
                if countHere[key]! > 1, !array { seen[key]!.repeated = true }
            }
        }
        return order.map { key in
            let facts = seen[key]!
            return ContractDraft.Query(
                name: key, type: valueType(facts.values), required: facts.entries == entries.count,
                array: facts.array, repeated: facts.repeated && !facts.array)
        }
    }

    private static func valueType(_ values: [String]) -> QueryValueType {
        if values.allSatisfy({ Int($0) != nil }) { return .int }
        if values.allSatisfy({ Double($0) != nil }) { return .number }
        if values.allSatisfy({ $0 == "true" || $0 == "false" }) { return .bool }
        return .string
    }

    /// Headers worth a check, when every request carried them: `Authorization` (with its scheme
    /// as a prefix when all share one: `token `, `Bearer `) and the app's own headers, with or
    /// without `X-` (`Kickstarter-App-Id`): every one that HTTP, a client library or a proxy does
    /// not add by itself.
    static func headerExpectations(_ entries: [Observed]) -> [ContractDraft.Header] {
        guard let first = entries.first else { return [] }
        var headers: [ContractDraft.Header] = []
        for name in first.exchange.requestHeaders.map(\.name) {
            let lower = name.lowercased()
            guard lower == "authorization" || isApplicationHeader(lower), !headers.contains(where: { $0.name.lowercased() == lower })
            else { continue }
            let values = entries.compactMap { $0.exchange.requestHeader(name) }
            guard values.count == entries.count else { continue }
            var header = ContractDraft.Header(name: name)
            if lower == "authorization" {
                let schemes = Set(values.map { value in value.firstIndex(of: " ").map { String(value[...$0]) } ?? "" })
                if schemes.count == 1, let scheme = schemes.first, !scheme.isEmpty { header.prefixes = [scheme] }
            }
            headers.append(header)
        }
        // Clients and proxies order headers differently; the contract should not depend on it.
        return headers.sorted {
            ($0.name.lowercased() == "authorization" ? "" : $0.name.lowercased())
                < ($1.name.lowercased() == "authorization" ? "" : $1.name.lowercased())
        }
    }

    /// Headers a client library, a browser or a proxy sends by itself, and the mock's own: never
    /// the app's, so never a check. Conditional and range headers are kept in the example instead.
    private static let generalHeaders: Set<String> = [
        "accept", "accept-charset", "accept-encoding", "accept-language", "cache-control", "connection", "content-length",
        "content-type", "content-encoding", "cookie", "date", "dnt", "expect", "forwarded", "from", "host", "keep-alive",
        "max-forwards", "origin", "pragma", "priority", "range", "referer", "te", "trailer", "transfer-encoding", "upgrade",
        "upgrade-insecure-requests", "user-agent", "via", "x-real-ip", "x-request-id", "x-requested-with",
    ]
    private static let generalPrefixes = ["if-", "sec-", "proxy-", "x-forwarded-", "access-control-request-", "mockapi-", "x-amzn-", "cf-"]

    static func isApplicationHeader(_ lower: String) -> Bool {
        // `:authority` and the other pseudo-headers of an HTTP/2 HAR are the request line, not headers.
        !lower.hasPrefix(":") && !generalHeaders.contains(lower) && !generalPrefixes.contains(where: lower.hasPrefix)
    }

    /// The headers that chose the recorded answer without being the app's (a 304 needs its
    /// `If-None-Match`, a 206 its `Range`): kept in the example, so `verify-backend` is answered the same.
    static let answerChoosingHeaders = ["if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range", "range"]

    /// JSON object bodies → keys (typed when every value agrees); multipart bodies → parts.
    static func bodyExpectations(_ entries: [Observed], warnings: inout [String]) -> ([ContractDraft.JSONKey]?, [ContractDraft.Part]?) {
        let withBody = entries.filter { !$0.exchange.requestBody.isEmpty || $0.exchange.parts != nil }
        guard !withBody.isEmpty else { return (nil, nil) }
        if withBody.count < entries.count {
            warnings.append("some requests have no body; the body is not checked")
            return (nil, nil)
        }
        let types = Set(entries.map { $0.exchange.requestMediaType ?? "" })
        if types.count == 1, let type = types.first, type == "application/json" || type.hasSuffix("+json") {
            var objects: [JSONObject] = []
            for entry in entries {
                guard case .object(let object)? = entry.json else {
                    warnings.append("a JSON body is not an object; the body is not checked")
                    return (nil, nil)
                }
                objects.append(object)
            }
            return (jsonKeys(objects), nil)
        }
        if types == ["multipart/form-data"] {
            let bodies = entries.compactMap(\.exchange.multipartParts)
            guard bodies.count == entries.count else {
                warnings.append("a multipart body was recorded without its parts; the parts are not checked")
                return (nil, nil)
            }
            return (nil, parts(bodies))
        }
        warnings.append("request bodies of type \(types.sorted().joined(separator: ", ")) are not checked (contracts check JSON objects and multipart)")
        return (nil, nil)
    }

    private static func jsonKeys(_ objects: [JSONObject]) -> [ContractDraft.JSONKey] {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for object in objects {
            for (key, value) in object.members {
                if values[key] == nil { order.append(key) }
                values[key, default: []].append(value)
            }
        }
        return order.map { key in
            let seen = values[key]!
            return ContractDraft.JSONKey(key: key, type: jsonType(seen), required: seen.count == objects.count)
        }
    }

    private static func jsonType(_ values: [JSONValue]) -> JSONValueType {
        switch Set(values.map(\.typeName)) {
        case ["int"]: .int
        case ["int", "number"], ["number"]: .number
        case ["string"]: .string
        case ["bool"]: .bool
        case ["object"]: .object
        case ["array"]: .array
        default: .any // null, or values of several types
        }
    }

    private static func parts(_ bodies: [[RecordedPart]]) -> [ContractDraft.Part] {
        var order: [String] = []
        var seen: [String: [RecordedPart]] = [:]
        for parts in bodies {
            for part in parts {
                if seen[part.name] == nil { order.append(part.name) }
                seen[part.name, default: []].append(part)
            }
        }
        return order.map { name in
            let parts = seen[name]!
            let isFile = parts.allSatisfy { !($0.fileName ?? "").isEmpty }
            var draft = ContractDraft.Part(name: name, required: bodies.allSatisfy { $0.contains { $0.name == name } }, filename: isFile)
            let types = parts.map { $0.contentType.map { MediaType.essence(of: $0) } }
            if isFile, types.allSatisfy({ $0 != nil }) {
                var distinct: [String] = []
                for case let type? in types where !distinct.contains(type) { distinct.append(type) }
                draft.contentTypes = distinct
            }
            return draft
        }
    }

    /// The first recorded request, as `verify-backend` will send it: path values, query, the
    /// checked headers that are not credentials, and a JSON body. Credentials are never written
    /// (`verify-backend` takes them from flags or the environment).
    static func example(_ entry: Observed, path template: String, checkedHeaders: [ContractDraft.Header], scrubber: SecretScrubber) -> RequestExample? {
        var example = RequestExample()
        let names = template.split(separator: "/", omittingEmptySubsequences: false)
        let values = entry.path.split(separator: "/", omittingEmptySubsequences: false)
        if names.count == values.count {
            for (name, value) in zip(names, values) where name.hasPrefix("{") {
                let parameter = name.dropFirst().dropLast().split(separator: ":").first.map(String.init) ?? ""
                example.path[parameter] = String(value).removingPercentEncoding ?? String(value)
            }
        }
        // A credential in the query is `[redacted]` too: `verify-backend` takes it from the environment.
        example.query = entry.query.map { item in
            let name = item.name.hasSuffix("[]") ? String(item.name.dropLast(2)) : item.name
            return RequestExample.Pair(name, scrubber.credentials.isCredential(name) ? CredentialKeys.marker : scrubber.scrub(item.value))
        }
        // Credential headers (`Authorization`, `X-Api-Key`) are left out: `verify-backend --header` sends them.
        for header in checkedHeaders
        where !HeaderRedaction.standard.redacts(header.name) && !scrubber.credentials.isCredential(header.name) {
            if let value = entry.exchange.requestHeader(header.name) { example.headers.append(.init(header.name, scrubber.scrub(value))) }
        }
        for header in entry.exchange.requestHeaders where answerChoosingHeaders.contains(header.name.lowercased()) {
            example.headers.append(.init(header.name, header.value))
        }
        if case .object? = entry.json { example.json = entry.json.map(scrubber.scrub) }
        return example == RequestExample() ? nil : example
    }
}
