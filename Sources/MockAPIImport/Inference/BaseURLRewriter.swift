import Foundation
import MockAPICore

/// Turns the hosts a capture talked to into `{{baseURL}}` in response bodies, so next-page and
/// web links bring the client back to the mock instead of the recorded host. Other hosts (a CDN,
/// a payment page) stay as recorded.
struct BaseURLRewriter {
    /// `https://api.example.com`, `http://127.0.0.1:8080`: scheme, host and port as recorded (and
    /// any prefix the mock stands in for: `https://host/api`), longest first.
    let origins: [String]

    init(urls: [String], prefixes: [String] = []) {
        var found: Set<String> = []
        for url in urls {
            guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { continue }
            let hostText = host.contains(":") ? "[\(host)]" : host
            found.insert("\(scheme.lowercased())://\(hostText)\(components.port.map { ":\($0)" } ?? "")")
        }
        for prefix in prefixes { found.insert(prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix) }
        origins = found.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    static let placeholder = "{{baseURL}}"

    /// The text with each recorded origin replaced where a URL of it starts (followed by `/`, `?`,
    /// `#`, a quote, whitespace or the end), never inside a longer host name.
    func rewrite(_ text: String) -> String {
        guard !origins.isEmpty else { return text }
        var out = text
        for origin in origins where out.contains(origin) {
            var result = ""
            var rest = Substring(out)
            while let range = rest.range(of: origin) {
                let next = rest[range.upperBound...].first
                result += rest[..<range.lowerBound]
                if next == nil || "/?#\"' \n\t<>)".contains(next!) {
                    result += Self.placeholder
                } else {
                    result += rest[range]
                }
                rest = rest[range.upperBound...]
            }
            out = result + rest
        }
        return out
    }

    /// Every string in a JSON value rewritten, keys and structure unchanged.
    func rewrite(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(rewrite(text))
        case .array(let items): return .array(items.map(rewrite))
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, rewrite($0.value)) }))
        default: return value
        }
    }
}
