import Foundation
import MockAPICommandKit
import MockAPIImport

/// The OpenAPI document of `mockapi serve --openapi`, imported into a private temporary folder
/// (removed at exit) so the server, its reload endpoint and `--watch` read contract files as
/// they always do. Each import is written all or nothing (`ContractWriter`): a document that no
/// longer imports leaves the previous import in place.
final class ServedDocument: Sendable {
    let path: String
    /// Holds `contracts/` and `fixtures/`; mode 0700, like every `mkdtemp` folder.
    let folder: String
    var contracts: String { folder + "/contracts" }
    var fixtures: String { folder + "/fixtures" }

    /// Imports `path` once; a document that does not import is an `ImportError`, and no folder is left.
    init(path: String) throws(ImportError) {
        self.path = path
        var template = Array((NSTemporaryDirectory() + "/mockapi-openapi-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ImportError("cannot make a temporary folder: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        do {
            try importAgain()
        } catch {
            remove()
            throw error
        }
    }

    /// Imports the document again in place of the previous import, printing its warnings and a
    /// summary on stderr (stdout's first line stays the `listening` line scripts read).
    func importAgain() throws(ImportError) {
        let set = try OpenAPIImporter().importFile(URL(fileURLWithPath: path))
        for warning in set.warnings { Output.error("warning: \(warning)") }
        guard !set.contracts.isEmpty else { throw ImportError("\(path): nothing to import (no operation could become a contract)") }
        try ContractWriter(output: URL(fileURLWithPath: folder), replace: true).write(set)
        let skipped = set.skipped == 0 ? "" : "; \(set.skipped) operation\(set.skipped == 1 ? "" : "s") skipped"
        Output.log(.info, "mockapi serve: imported \(path): \(set.contracts.count) contracts, \(set.responseCount) responses, \(set.fixtures.count) fixtures\(skipped)")
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
