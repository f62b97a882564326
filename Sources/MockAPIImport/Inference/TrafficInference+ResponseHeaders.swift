import Foundation
import MockAPICore

/// The recorded answer's headers a client depends on, as the contract's `responses.*.headers`:
/// redirects' `Location`, `Set-Cookie`, `ETag`, `Cache-Control`, `Content-Range`, `Link`… Left out
/// are the ones that belong to the connection (hop-by-hop, RFC 9110 §7.6.1) and the ones the mock
/// writes itself (`Date`, `Server`, `Content-Length`, `Mockapi-*`), and the ones about the host
/// rather than the API (`Strict-Transport-Security`, `Alt-Svc`). Credentials follow the journal's policy
/// (`HeaderRedaction`) and `CredentialKeys`: a `Set-Cookie` keeps its name and attributes with
/// the value `[redacted]`, a credential header is `[redacted]` whole, and secrets the requests
/// sent are cut out of every other value.
extension TrafficInference {
    /// Lowercased names never kept.
    /// The last four bind the host a browser talks to, which is the mock's: HSTS from a recorded
    /// API would pin `localhost` to HTTPS for a year, `Alt-Svc` send it to HTTP/3 on port 443.
    static let responseHeadersDropped: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "date", "server", "content-length",
        "strict-transport-security", "alt-svc", "public-key-pins", "public-key-pins-report-only",
    ]

    /// Headers whose values are URLs: one on a recorded host is made relative (`/v1/x`), so the
    /// client comes back to the mock as it does through a `{{baseURL}}` body link.
    static let urlHeaders: Set<String> = ["location", "content-location", "link"]

    /// Headers that say what the answer is, so two answers that differ in one are two responses
    /// (redirects to different places, cookies set or not); the rest (`ETag`, `Expires`,
    /// request ids) changes from one request to the next and would make every repeat a sequence.
    static let identifyingHeaders: Set<String> = ["location", "content-location", "content-type", "content-range", "content-disposition", "link"]

    /// The headers to write for `exchange`'s answer, whose fixture has `fileExtension` (empty for no body).
    static func responseHeaders(_ exchange: RecordedExchange, fileExtension: String, rewriter: BaseURLRewriter, scrubber: SecretScrubber) -> [HTTPField] {
        var kept: [HTTPField] = []
        for header in exchange.responseHeaders {
            let name = header.name.lowercased()
            // HTTP/2 pseudo-headers (`:status`) some HAR writers list, and names no HTTP/1.1 line can carry.
            // `Mockapi-Contract`, `Mockapi-Problem`: a mock's own, which the replaying mock writes itself.
            guard !responseHeadersDropped.contains(name), !name.hasPrefix("proxy-"), !name.hasPrefix("mockapi-"), Self.isToken(header.name),
                !header.value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f })
            else { continue }
            if name == "content-type" {
                // Written only when the fixture's extension would be served as another type.
                let served = fileExtension.isEmpty ? "" : MediaType.forFile(named: "x.\(fileExtension)")
                if Self.sameType(header.value, served) { continue }
                kept.removeAll { $0.name.lowercased() == "content-type" }
                kept.append(HTTPField(header.name, header.value))
                continue
            }
            let value: String
            if name == "set-cookie" {
                value = Self.redactedCookie(header.value)
            } else if Self.holdsCredential(header.name, credentials: scrubber.credentials) {
                value = CredentialKeys.marker
            } else if urlHeaders.contains(name) {
                value = Self.relativeToMock(rewriter.rewrite(scrubber.scrub(header.value)))
            } else {
                value = scrubber.scrub(header.value)
            }
            kept.append(HTTPField(header.name, value))
        }
        // The body's type when the capture gave it apart from the headers (HAR `content.mimeType`).
        if !kept.contains(where: { $0.name.lowercased() == "content-type" }),
            !exchange.responseHeaders.contains(where: { $0.name.lowercased() == "content-type" }),
            let type = exchange.responseContentType, !type.isEmpty, !fileExtension.isEmpty,
            !Self.sameType(type, MediaType.forFile(named: "x.\(fileExtension)"))
        {
            kept.append(HTTPField("Content-Type", type))
        }
        return kept
    }

    /// A header the journal redacts, or named like a credential (`X-Auth-Token`). Not CORS's
    /// `Access-Control-Allow-Credentials`: a policy (`true`), no secret.
    static func holdsCredential(_ name: String, credentials: CredentialKeys) -> Bool {
        HeaderRedaction.standard.redacts(name) || (credentials.isCredential(name) && !name.lowercased().hasPrefix("access-control-"))
    }

    /// `a=secret; Path=/; HttpOnly` → `a=[redacted]; Path=/; HttpOnly`: what a client needs to
    /// see the cookie set (its name, scope and lifetime), never its value.
    static func redactedCookie(_ value: String) -> String {
        let end = value.firstIndex(of: ";") ?? value.endIndex
        let pair = value[..<end]
        guard let equals = pair.firstIndex(of: "=") else { return CredentialKeys.marker + value[end...] }
        return pair[...equals] + CredentialKeys.marker + value[end...]
    }

    /// The cookies' values a `Set-Cookie` (or `Cookie`) header carries: secrets to cut from answers.
    static func cookieValues(_ value: String, requestSide: Bool) -> [String] {
        let pairs = requestSide ? value.split(separator: ";") : [value.split(separator: ";", maxSplits: 1).first ?? ""]
        return pairs.compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            var cookie = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if cookie.count >= 2, cookie.hasPrefix("\""), cookie.hasSuffix("\"") { cookie = String(cookie.dropFirst().dropLast()) }
            return cookie.isEmpty ? nil : cookie
        }
    }

    /// `{{baseURL}}/v1/x` → `/v1/x`: a header gets no placeholders, and a relative URL resolves
    /// against the mock the client asked.
    static func relativeToMock(_ value: String) -> String {
        value.replacingOccurrences(of: BaseURLRewriter.placeholder + "/", with: "/")
            .replacingOccurrences(of: BaseURLRewriter.placeholder, with: "/")
    }

    /// The two name the same type and parameters (`application/json` and `Application/JSON`).
    static func sameType(_ a: String, _ b: String) -> Bool {
        func normal(_ text: String) -> String {
            text.lowercased().split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ";")
        }
        return normal(a) == normal(b)
    }

    /// An RFC 9110 token: what a header name may be.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}
