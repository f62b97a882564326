import Foundation
package import MockAPICore

/// The part of an exported document only mockapi reads: the root's `x-mockapi` (the set's
/// defaults and every fixture, byte for byte) and each operation's `x-mockapi-contracts` (its
/// contract files as written). Reading them back is what makes `import(export(set))` the set.
enum ExportedFixtures {
    static let version = 1

    static func setExtension(for set: ContractSet) -> JSONValue {
        var fixtures = JSONObject()
        for contract in set.contracts {
            for response in contract.responses {
                guard let path = response.fixture, fixtures[path] == nil else { continue }
                fixtures[path] = encoded(response.body)
            }
        }
        var root = JSONObject([("version", .int(version))])
        if let defaults = set.defaults.fileJSON { root["defaults"] = defaults }
        root["fixtures"] = .object(JSONObject(fixtures.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        return .object(root)
    }

    /// Text as text (a reader can see it); anything else as base64.
    private static func encoded(_ bytes: [UInt8]) -> JSONValue {
        if let text = String(validating: bytes, as: UTF8.self) { return ["text": .string(text)] }
        return ["base64": .string(Data(bytes).base64EncodedString())]
    }

    static func decoded(_ value: JSONValue) -> [UInt8]? {
        if let text = value.objectValue?["text"]?.stringValue { return Array(text.utf8) }
        if let base64 = value.objectValue?["base64"]?.stringValue, let data = Data(base64Encoded: base64) { return Array(data) }
        return nil
    }
}

/// What plain OpenAPI says of an operation (every key but mockapi's `x-mockapi…`), reduced to a
/// fingerprint that ignores key order and layout (a YAML round trip keeps it). FNV-1a: it tells an
/// edit from none, it guards no secret.
enum StandardPart {
    static func fingerprint(of operation: JSONObject) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonical(.object(operation), top: true).serialized.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "fnv1a64:" + String(hash, radix: 16)
    }

    private static func canonical(_ value: JSONValue, top: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            let kept = object.members.filter { !top || !$0.key.hasPrefix("x-mockapi") }
            return .object(JSONObject(kept.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
        case .array(let items): return .array(items.map { canonical($0) })
        default: return value
        }
    }
}

/// `import openapi` of a document `export openapi` wrote: the contracts and fixtures it carries,
/// taken as they are. Nil for any other document (no `x-mockapi` at its root).
package enum ExportedSetReader {
    package static func read(_ document: JSONValue, file: String) -> ImportedSet? {
        guard let root = document.objectValue, let set = root[OpenAPIExporter.setExtension]?.objectValue else { return nil }
        var result = ImportedSet()
        if let defaults = set["defaults"] {
            do { result.defaults = try SetDefaults.decode(defaults) } catch {
                result.warnings += error.problems.map { "\(file): #/\(OpenAPIExporter.setExtension)/defaults: \($0.message); left out" }
            }
        }
        for (path, value) in set["fixtures"]?.objectValue?.members ?? [] {
            guard let bytes = ExportedFixtures.decoded(value) else {
                result.warnings.append("\(file): #/\(OpenAPIExporter.setExtension)/fixtures/\(path): neither text nor base64; left out")
                continue
            }
            result.fixtures.append(ImportedSet.Fixture(path: path, bytes: bytes))
        }
        for (path, item) in root["paths"]?.objectValue?.members ?? [] {
            for (method, operation) in item.objectValue?.members ?? [] {
                let pointer = "#/paths/\(escaped(path))/\(method)"
                guard let entries = operation.objectValue?[OpenAPIExporter.contractsExtension]?.arrayValue else {
                    guard RequestMethod(rawValue: method.uppercased()) != nil else { continue }
                    result.warnings.append("\(file): \(pointer): no \(OpenAPIExporter.contractsExtension) in a document mockapi exported; operation skipped")
                    result.skipped += 1
                    continue
                }
                if let written = operation.objectValue?[OpenAPIExporter.standardExtension]?.stringValue, let object = operation.objectValue,
                    written != StandardPart.fingerprint(of: object)
                {
                    result.warnings.append(
                        "\(file): \(pointer): edited after export: its OpenAPI part no longer matches \(OpenAPIExporter.contractsExtension), "
                            + "which was imported as it was; make the edit in the contract file, or delete \(OpenAPIExporter.contractsExtension) "
                            + "and \(OpenAPIExporter.setExtension) to import the document as plain OpenAPI")
                }
                for (offset, entry) in entries.enumerated() {
                    guard let relative = entry.objectValue?["file"]?.stringValue, let json = entry.objectValue?["contract"] else {
                        result.warnings.append("\(file): \(pointer)/\(OpenAPIExporter.contractsExtension)/\(offset): expected {file, contract}; skipped")
                        result.skipped += 1
                        continue
                    }
                    do {
                        let contract = try ContractFile.decode(json, file: relative)
                        let parts = relative.split(separator: "/")
                        var draft = ContractDraft(folder: parts.dropLast().joined(separator: "/"), file: contract)
                        draft.fileName = parts.last.map(String.init)
                        result.contracts.append(draft)
                    } catch {
                        result.warnings += error.problems.map { "\(file): \(pointer): \($0.description); skipped" }
                        result.skipped += 1
                    }
                }
            }
        }
        return result
    }

    /// A JSON pointer's escaping of a path key (`/v1/a` → `~1v1~1a`).
    private static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
