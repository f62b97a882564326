/// What `contracts/_defaults.json` adds to every contract: the query keys and headers a real
/// client sends on every request (`client_id`, `currency`, `User-Agent`, `Accept-Language`, …),
/// written once instead of in each file. A contract that names the same key or header replaces
/// the default with its own.
package struct SetDefaults: Sendable, Equatable {
    /// The file's name, at the top of the contracts folder; it is not a contract itself.
    package static let fileName = "_defaults.json"

    package var query: [QueryExpectation] = []
    package var headers: [HeaderExpectation] = []

    package init(query: [QueryExpectation] = [], headers: [HeaderExpectation] = []) {
        self.query = query
        self.headers = headers
    }

    /// The contract's own query keys, then the defaults it does not name.
    func merged(query own: [QueryExpectation]) -> [QueryExpectation] {
        own + query.filter { spec in !own.contains { $0.name == spec.name } }
    }

    /// The contract's own headers, then the defaults it does not name (names in any case).
    func merged(headers own: [HeaderExpectation]) -> [HeaderExpectation] {
        own + headers.filter { spec in !own.contains { $0.name.lowercased() == spec.name.lowercased() } }
    }
}
