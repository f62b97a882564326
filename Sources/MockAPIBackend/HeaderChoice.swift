import MockAPICore

/// The `--header` values given, when one name has several (`Authorization: Basic …` and
/// `Authorization: token …` for a set that mixes two schemes): which one each request carries,
/// so one run checks the whole set.
struct HeaderChoice {
    let given: [HTTPField]

    /// One value per name: the one whose scheme the contract declares for that header (a
    /// `prefixes` entry or a credential's `prefix`), else the first given.
    func headers(for contract: Contract) -> [HTTPField] {
        var chosen: [HTTPField] = []
        for header in given where !chosen.contains(where: { $0.name.lowercased() == header.name.lowercased() }) {
            let candidates = given.filter { $0.name.lowercased() == header.name.lowercased() }
            let declared = Self.declaredPrefixes(of: header.name, in: contract)
            chosen.append(candidates.first { candidate in declared.contains { candidate.value.lowercased().hasPrefix($0.lowercased()) } } ?? header)
        }
        return chosen
    }

    /// The given `Authorization` whose scheme a 401's `WWW-Authenticate` asks for (`Basic
    /// realm="…"` → the `Basic …` value), when it is not the one just sent.
    func answering(challenge: String?, sent: [HTTPField]) -> [HTTPField]? {
        guard let challenge, let scheme = challenge.split(separator: " ").first.map({ $0.lowercased() }) else { return nil }
        let sentValue = sent.first { $0.name.lowercased() == "authorization" }?.value
        guard
            let match = given.first(where: { header in
                header.name.lowercased() == "authorization" && header.value.split(separator: " ").first?.lowercased() == scheme && header.value != sentValue
            })
        else { return nil }
        return sent.filter { $0.name.lowercased() != "authorization" } + [match]
    }

    private static func declaredPrefixes(of name: String, in contract: Contract) -> [String] {
        let lower = name.lowercased()
        let headers = contract.request.headers.filter { $0.name.lowercased() == lower }.flatMap(\.prefixes)
        let credentials = (contract.request.credentials?.anyOf ?? []).filter { $0.place == .header && $0.name.lowercased() == lower }.compactMap(\.prefix)
        return headers + credentials
    }
}
