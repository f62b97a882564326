/// Which body keys, form fields, multipart parts, query parameters and headers hold a credential:
/// what `record` and `import har` never write in clear (a contract, a name, a rule, a fixture), and
/// what `verify-backend` never sends as its `[redacted]` marker.
///
/// A name is compared lowercased with its separators dropped (`Pass_Word`, `client-secret` and
/// `clientSecret` are `password`, `clientsecret`): a credential when it is one of `exactNames` or
/// a name the user added (`--redact-key`), or contains one of `words`.
package struct CredentialKeys: Sendable, Equatable {
    /// What a credential's value is written as.
    package static let marker = "[redacted]"
    package static let standard = CredentialKeys()

    /// Credentials only under exactly this name: as parts of longer names they mean other things
    /// (`pin` in `shipping`, `pass` in `passenger`). Not `key`, `session` or `auth`: answers use
    /// them for what is no secret (an issue's `"key": "PROJ-1"`, a session's whole object).
    static let exactNames: Set<String> = [
        "pass", "pwd", "pin", "otp", "totp", "mfa", "authorization", "cookie", "sessionid", "jwt", "sig", "signature", "cvv", "cvc", "ssn",
    ]
    /// Credentials wherever they appear in a name (`new_password`, `refresh_token`, `X-Api-Key`).
    static let words = ["password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "credential", "privatekey"]
    /// Names that contain a word but hold no credential.
    static let notCredentials: Set<String> = ["tokentype"]

    /// Normalized names the user added.
    private let extraNames: Set<String>

    /// The standard names plus `extraNames` (any case, any separators).
    package init(extraNames: [String] = []) {
        self.extraNames = Set(extraNames.map(Self.normalized).filter { !$0.isEmpty })
    }

    /// `Client-Secret` → `clientsecret`: lowercased, letters and digits only.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }

    package func isCredential(_ name: String) -> Bool {
        let name = Self.normalized(name)
        guard !name.isEmpty, !Self.notCredentials.contains(name) else { return false }
        return Self.exactNames.contains(name) || extraNames.contains(name) || Self.words.contains { name.contains($0) }
    }

    /// The value with every string or number under a credential key (at any depth, in arrays
    /// too) as `[redacted]`. Bools and nulls stay: they hold no secret, and say what was sent.
    package func redacting(_ value: JSONValue, underCredential: Bool = false) -> JSONValue {
        switch value {
        case .string, .int, .double: return underCredential ? .string(Self.marker) : value
        case .array(let items): return .array(items.map { redacting($0, underCredential: underCredential) })
        case .object(let object):
            return .object(JSONObject(object.members.map { ($0.key, redacting($0.value, underCredential: underCredential || isCredential($0.key))) }))
        default: return value
        }
    }

    /// The texts of every string or number under a credential key: what must not be written
    /// anywhere else either (an answer that echoes the request).
    package func secrets(in value: JSONValue, underCredential: Bool = false) -> [String] {
        switch value {
        case .string(let text): return underCredential ? [text] : []
        case .int, .double: return underCredential ? [value.serialized] : []
        case .array(let items): return items.flatMap { secrets(in: $0, underCredential: underCredential) }
        case .object(let object):
            return object.members.flatMap { secrets(in: $0.value, underCredential: underCredential || isCredential($0.key)) }
        default: return []
        }
    }

    /// `client-secret` → `MOCKAPI_SECRET_CLIENT_SECRET`: where `verify-backend` finds the real value
    /// of a key a request example has as `[redacted]`.
    package static func environmentName(forKey key: String) -> String {
        "MOCKAPI_SECRET_" + String(key.uppercased().unicodeScalars.map { ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
    }
}
