import Foundation
import MockAPICore

/// Every link in the set's response bodies, checked: `{{baseURL}}/…` links (next pages, related
/// resources) must be a GET some contract serves, and web links must pass the app's matcher.
enum FixtureLinks {
    /// Every dead link in the whole set (what `mockapi lint` reports).
    static func dead(in set: ContractSet, deepLinks: DeepLinkCheck? = nil) -> [DeadLink] {
        dead(in: set, contracts: Set(set.contracts.map(\.name)), deepLinks: deepLinks)
    }

    static let baseURLPlaceholder = "{{baseURL}}"

    /// The dead links in the responses of `contracts` (each fixture file read once).
    static func dead(in set: ContractSet, contracts: Set<String>, deepLinks: DeepLinkCheck?) -> [DeadLink] {
        var seen: Set<String> = []
        var dead: [DeadLink] = []
        for contract in set.contracts where contracts.contains(contract.name) {
            for response in contract.responses {
                let source =
                    response.fixture.map { "\(set.fixturesDirectory)/\($0)" }
                    ?? "\(set.contractsDirectory)/\(contract.file) responses.\(response.name).body"
                guard seen.insert(source).inserted, let body = try? JSONParser.parse(response.body) else { continue }
                visitStrings(body, path: "") { path, text in
                    if let reason = deadReason(text, set: set, deepLinks: deepLinks) {
                        dead.append(DeadLink(source: source, jsonPath: path.isEmpty ? "$" : path, url: text, reason: reason))
                    }
                }
            }
        }
        return dead
    }

    /// Why the link `text` leads nowhere, or nil when it is live (or not a link this check knows).
    static func deadReason(_ text: String, set: ContractSet, deepLinks: DeepLinkCheck?) -> String? {
        if text.hasPrefix(baseURLPlaceholder) {
            // A request-echoing placeholder (`{{path.id}}`) stands for a value the request supplies: 1 fits any parameter.
            let path = String(text.dropFirst(baseURLPlaceholder.count).prefix { $0 != "?" && $0 != "#" })
                .replacingOccurrences(of: #"\{\{[^}]*\}\}"#, with: "1", options: .regularExpression)
            if case .found = set.routes.match(method: .GET, path: path) { return nil }
            let nearest = NearestContracts.find(method: .GET, path: path, in: set.contracts, limit: 1).first
            return "no contract serves GET \(path)" + (nearest.map { " (nearest \(set.contracts[$0.contract].name): \($0.reason))" } ?? "")
        }
        guard let deepLinks, let url = URL(string: text), deepLinks.covers(url) else { return nil }
        return deepLinks.accepts(url) ? nil : "the app's deep-link matcher does not accept it"
    }

    private static func visitStrings(_ value: JSONValue, path: String, _ visit: (String, String) -> Void) {
        switch value {
        case .string(let text): visit(path, text)
        case .array(let elements):
            for (index, element) in elements.enumerated() { visitStrings(element, path: "\(path)[\(index)]", visit) }
        case .object(let object):
            for (key, child) in object.members { visitStrings(child, path: path.isEmpty ? key : "\(path).\(key)", visit) }
        default: break
        }
    }
}
