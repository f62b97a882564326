import Foundation
import MockAPICore

/// Keeps the credentials a capture holds out of everything written from it.
///
/// Values under credential keys (`CredentialKeys`) are `[redacted]` wherever they are written; the
/// texts of those values, gathered from every request (JSON bodies at any depth, form fields,
/// multipart text parts, query parameters, credential headers, cookies sent and set), are also cut
/// out of the answers' fixtures and headers, which often echo them (httpbin's `/post` does), and are never a rule or a name.
struct SecretScrubber {
    let credentials: CredentialKeys
    /// The secret texts, longest first (so a secret that contains another is cut whole).
    let secrets: [String]
    /// The secrets by their first `shortest` bytes: a text is searched once, at each offset only
    /// for the secrets that start there (a capture with a token per request holds thousands).
    private let byPrefix: [[UInt8]: [[UInt8]]]

    /// Shorter texts are not cut out of answers: `42` or `yes` would cut ids and words that are no secret.
    static let shortest = 4

    init(credentials: CredentialKeys, exchanges: [RecordedExchange]) {
        self.credentials = credentials
        var found: Set<String> = []
        var pathSegments: Set<String> = []
        for exchange in exchanges {
            guard let components = URLComponents(string: exchange.url) else { continue }
            for segment in components.percentEncodedPath.split(separator: "/") {
                pathSegments.insert(String(segment).removingPercentEncoding ?? String(segment))
            }
            for (name, value) in TrafficInference.queryItems(components) where credentials.isCredential(name) { found.insert(value) }
            for header in exchange.requestHeaders + exchange.redactedRequestHeaders
            where HeaderRedaction.standard.redacts(header.name) || credentials.isCredential(header.name) {
                found.insert(header.value)
                // `Bearer abc`: the credential without its scheme, as an answer may echo it.
                if let space = header.value.firstIndex(of: " ") { found.insert(String(header.value[header.value.index(after: space)...])) }
                // Each cookie's value: a session id an answer echoes (httpbin's `/cookies`).
                if header.name.caseInsensitiveCompare("Cookie") == .orderedSame {
                    found.formUnion(TrafficInference.cookieValues(header.value, requestSide: true))
                }
            }
            // A cookie the backend set is a credential too: its value is `[redacted]` in the
            // contract's `Set-Cookie`, and cut out of any answer that shows it.
            for header in exchange.responseHeaders where header.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                found.formUnion(TrafficInference.cookieValues(header.value, requestSide: false))
            }
            let type = exchange.requestMediaType ?? ""
            if type == "application/json" || type.hasSuffix("+json"), let json = try? JSONParser.parse(exchange.requestBody) {
                found.formUnion(credentials.secrets(in: json))
            } else if type == MediaType.form {
                for (name, value) in Self.formFields(exchange.requestBody) where credentials.isCredential(name) { found.insert(value) }
            }
            for part in exchange.multipartParts ?? [] where credentials.isCredential(part.name) {
                if let value = part.value { found.insert(value) }
            }
        }
        // A secret that is also a path segment (`/v1/projects` and a password `projects`) is the
        // API's own word: cutting it out of answers would break their links, and the path says it anyway.
        secrets = found.filter { $0.count >= Self.shortest && $0 != CredentialKeys.marker && !pathSegments.contains($0) }
            .flatMap { secret in
                // As a form body spells it too, should an answer echo the raw body.
                let encoded = Self.formEncoded(secret)
                return encoded == secret ? [secret] : [secret, encoded]
            }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        var byPrefix: [[UInt8]: [[UInt8]]] = [:]
        for secret in secrets {
            let bytes = Array(secret.utf8)
            guard bytes.count >= Self.shortest else { continue }
            byPrefix[Array(bytes.prefix(Self.shortest)), default: []].append(bytes)
        }
        self.byPrefix = byPrefix
    }

    /// Where each secret stands whole in `bytes` (the longest at an offset), left to right, not
    /// overlapping. Whole: a secret that begins or ends with a letter or digit is not cut out of a
    /// longer word (a cookie `theme=dark` leaves httpbin's "darkness" alone).
    private func matches(in bytes: [UInt8]) -> [Range<Int>] {
        guard !byPrefix.isEmpty, bytes.count >= Self.shortest else { return [] }
        func isAlphanumeric(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) }
        func standsWhole(_ secret: [UInt8], at index: Int) -> Bool {
            let end = index + secret.count
            guard end <= bytes.count, bytes[index..<end].elementsEqual(secret) else { return false }
            if index > 0, isAlphanumeric(secret[0]), isAlphanumeric(bytes[index - 1]) { return false }
            if end < bytes.count, isAlphanumeric(secret[secret.count - 1]), isAlphanumeric(bytes[end]) { return false }
            return true
        }
        var found: [Range<Int>] = []
        var index = 0
        while index + Self.shortest <= bytes.count {
            if let candidates = byPrefix[Array(bytes[index..<(index + Self.shortest)])],
                let secret = candidates.first(where: { standsWhole($0, at: index) })
            {
                found.append(index..<(index + secret.count))
                index += secret.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// Whether `text` is (or holds) a secret: such a value is never a rule or a name.
    func holdsSecret(_ text: String) -> Bool {
        !matches(in: Array(text.utf8)).isEmpty
    }

    func holdsSecret(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): holdsSecret(text)
        case .int, .double: holdsSecret(value.serialized)
        default: false
        }
    }

    /// The text with every secret as `[redacted]`.
    func scrub(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let found = matches(in: bytes)
        guard !found.isEmpty else { return text }
        var out: [UInt8] = [], last = 0
        for range in found {
            out += bytes[last..<range.lowerBound]
            out += Array(CredentialKeys.marker.utf8)
            last = range.upperBound
        }
        out += bytes[last...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Credential keys' values `[redacted]`, and secrets cut out of every other string.
    func scrub(_ value: JSONValue) -> JSONValue {
        func cut(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): .string(scrub(text))
            case .array(let items): .array(items.map(cut))
            case .object(let object): .object(JSONObject(object.members.map { ($0.key, cut($0.value)) }))
            default: value
            }
        }
        return cut(credentials.redacting(value))
    }

    /// `a=1&b=x+y` → `[("a", "1"), ("b", "x y")]`.
    static func formFields(_ body: [UInt8]) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let plus = text.replacingOccurrences(of: "+", with: " ")
                return plus.removingPercentEncoding ?? plus
            }
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~ ")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: " ", with: "+")
    }
}
