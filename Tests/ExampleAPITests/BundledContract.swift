import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport

/// A bundled contract file read as plain JSON: its name and each response's body bytes.
///
/// Read independently of the server's loader, so these tests check the files a person edits.
struct BundledContract {
    var name: String
    /// Response name → body: the fixture's bytes, or the inline `body` re-serialized, else empty.
    var responses: [String: Data]

    /// Every contract file under the bundled `contracts/` (the set's `_defaults.json` is not one).
    static func all() throws -> [BundledContract] {
        let files =
            FileManager.default.enumerator(at: BundledAPI.contracts, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && $0.lastPathComponent != "_defaults.json" } ?? []
        return try files.map(load)
    }

    private static func load(_ file: URL) throws -> BundledContract {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        let responses = json["responses"] as? [String: [String: Any]] ?? [:]
        return BundledContract(
            name: json["name"] as? String ?? file.lastPathComponent,
            responses: try responses.mapValues { response in
                if let fixture = response["fixture"] as? String {
                    return try Data(contentsOf: BundledAPI.fixtures.appendingPathComponent(fixture))
                }
                guard let body = response["body"] else { return Data() }
                return try JSONSerialization.data(withJSONObject: body)
            }
        )
    }
}
