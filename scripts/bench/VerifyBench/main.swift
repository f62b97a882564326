import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore
import MockAPIVerify
import MockAPIVerifyCommand

/// The verify benchmark's client: one check per route that `gen_contracts.py` generated, its
/// sample request made from the contract's path template. It is also the smallest real example
/// of a team gate built on `VerifyCommand.main(checks:)`.
@main enum VerifyBench {
    static func main() async {
        await VerifyCommand.main(checks: { set in
            set.contracts.filter { $0.name.hasPrefix("generated.") }.map { contract in
                let path = samplePath(contract.request.path.text)
                return RouteCheck(name: contract.name, contract: contract.name,
                                  request: { baseURL in URLRequest(url: baseURL.appendingPathComponent(path)) },
                                  responses: ["default": .decoding(GeneratedItem.self, with: JSONDecoder())])
            }
        })
    }

    /// `/v1/generated/r00042/items/{id:int}/comments/{slug}` → `/v1/generated/r00042/items/1/comments/x`.
    static func samplePath(_ template: String) -> String {
        template.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix("{") else { return String(segment) }
            return segment.hasSuffix(":int}") ? "1" : "x"
        }.joined(separator: "/")
    }
}

/// The fixture every generated route serves.
struct GeneratedItem: Codable {
    var id: Int
    var name: String
    var tags: [String]
    var active: Bool
}
