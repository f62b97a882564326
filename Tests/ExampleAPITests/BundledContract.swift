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
        let json = try JSONParser.parse(Data(contentsOf: file)).objectValue ?? JSONObject()
        var responses: [String: Data] = [:]
        for (name, response) in json["responses"]?.objectValue?.members ?? [] {
            if let fixture = response.objectValue?["fixture"]?.stringValue {
                responses[name] = try Data(contentsOf: BundledAPI.fixtures.appendingPathComponent(fixture))
            } else {
                responses[name] = response.objectValue?["body"].map { Data($0.serialized.utf8) } ?? Data()
            }
        }
        return BundledContract(name: json["name"]?.stringValue ?? file.lastPathComponent, responses: responses)
    }
}
