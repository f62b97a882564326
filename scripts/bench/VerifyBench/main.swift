import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore
import MockAPIVerify
import MockAPIVerifyCommand

/// The verify benchmark's client: one check per route that `gen_contracts.py` generated, its
/// request the contract's `ConformingRequest` (what `verify-backend` sends), built once up front so
/// a check costs what it did when the path was filled in by hand. It is also a small real example
/// of a team gate built on `VerifyCommand.main(checks:)`.
@main enum VerifyBench {
    static func main() async {
        await VerifyCommand.main(checks: { set in
            set.contracts.filter { $0.name.hasPrefix("generated.") }.map { contract in
                let request = ConformingRequest(contract: contract)
                return RouteCheck(name: contract.name, contract: contract.name,
                                  request: { baseURL in request.urlRequest(baseURL: baseURL) },
                                  responses: ["default": .decoding(GeneratedItem.self, with: JSONDecoder())])
            }
        })
    }
}

/// The fixture every generated route serves.
struct GeneratedItem: Codable {
    var id: Int
    var name: String
    var tags: [String]
    var active: Bool
}
