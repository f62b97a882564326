import Foundation
package import MockAPICore
import MockAPIImport

/// An OpenAPI document as `mockapi diff` reads it: imported as `serve --openapi` imports it, into
/// a temporary folder that is removed once the set is loaded. Two documents are compared by the
/// statuses they declare (`ResponsePairing.byStatus`), not by the names the importer gave them.
package enum ImportedDocument {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A file rather than a folder: an OpenAPI document (JSON or YAML).
    package static func isDocument(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    /// The set, and the responses that stand for the document's `default` ("any other status").
    package struct Loaded {
        package var set: ContractSet
        /// `CONTRACT RESPONSE` for each `default` the importer kept under a status of its own (a 500).
        package var keptDefaults: Set<String>
    }

    package static func load(_ path: String) throws(Failure) -> Loaded {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported: ImportedSet
        do throws(ImportError) {
            imported = try OpenAPIImporter().importFile(URL(fileURLWithPath: path))
            guard !imported.contracts.isEmpty else { throw ImportError("nothing to import (no operation could become a contract)") }
            try ContractWriter(output: folder, replace: true).write(imported)
        } catch {
            throw Failure(description: error.description)
        }
        do {
            let set = try ContractSet.load(contracts: folder.appendingPathComponent("contracts"), fixtures: folder.appendingPathComponent("fixtures"))
            return Loaded(set: set, keptDefaults: keptDefaults(imported))
        } catch {
            throw Failure(description: "its import does not load: \(error.description)")
        }
    }

    /// The importer says which `default` it kept as which response only in its warning
    /// (`FILE: POST /user: #/…/default: response "default" (any other status) is kept as a 500 ("server_error")`):
    /// read there, and matched to the contract by method and path.
    static func keptDefaults(_ imported: ImportedSet) -> Set<String> {
        var kept: Set<String> = []
        for warning in imported.warnings where warning.contains(#"response "default" (any other status) is kept as a"#) {
            let parts = warning.components(separatedBy: ": ")
            let quoted = warning.split(separator: "\"", omittingEmptySubsequences: false)
            guard parts.count >= 3, quoted.count >= 3 else { continue }
            let response = String(quoted[quoted.count - 2])
            for draft in imported.contracts where "\(draft.file.method.rawValue) \(untyped(draft.file.path))" == parts[1] {
                kept.insert("\(draft.file.name) \(response)")
            }
        }
        return kept
    }

    /// `/pet/{petId:int}` → `/pet/{petId}`, as the document writes it.
    private static func untyped(_ path: String) -> String {
        path.replacing(/\{([^}:]+):[^}]*\}/) { "{\($0.output.1)}" }
    }
}
