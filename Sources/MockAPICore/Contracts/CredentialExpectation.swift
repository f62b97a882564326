/// `request.credentials`: the request must carry one of several credentials, as an API that takes
/// an API key header, HTTP Basic or a client key in the query says (OpenAPI's `security` with
/// alternatives). One credential alone is a required header; this is for the either-or.
package struct CredentialExpectation: Sendable, Equatable {
    /// In the order written; any one of them keeps the contract.
    package var anyOf: [Credential]
    /// The contract's response a request without any of them gets (the API's 401), instead of
    /// the contract's refusal.
    package var refusal: String?

    package init(anyOf: [Credential], refusal: String? = nil) {
        self.anyOf = anyOf
        self.refusal = refusal
    }

    /// One way to present a credential: a header (its value starting with `prefix`, when given)
    /// or a query key. Present is enough: a mock cannot tell a valid token from another.
    package struct Credential: Sendable, Equatable {
        package enum Place: String, Sendable, CaseIterable { case header, query }
        package var place: Place
        package var name: String
        /// `Basic ` or `Bearer `; only for a header.
        package var prefix: String?

        package static func header(_ name: String, prefix: String? = nil) -> Credential { Credential(place: .header, name: name, prefix: prefix) }
        package static func query(_ name: String) -> Credential { Credential(place: .query, name: name, prefix: nil) }

        /// `X-API-Key header`, `Authorization header starting "Basic "`, `clientKey query key`: for violations.
        package var summary: String {
            switch place {
            case .header: "\(name) header" + (prefix.map { " starting \"\($0)\"" } ?? "")
            case .query: "\(name) query key"
            }
        }
    }

    /// Where a missing credential is reported, and what a contract's refusal is keyed by.
    package static let location = "credentials"
}
