package import Foundation
import MockAPICore

/// `mockapi import openapi`: one contract per operation of an OpenAPI 3.0/3.1/3.2 document or a
/// Swagger 2.0 one (converted on import), in one file or split across files by `$ref`s.
///
/// No one part fails the whole document: an operation the contract format cannot express (a
/// deepObject query, TRACE) is left out, and a detail it can only loosen (a cookie, a form-encoded
/// body, a `$ref` that cannot be followed) is imported loosened; each with a warning naming the
/// JSON pointer. The last warning counts them by reason. Only an entry file that cannot be read,
/// or is not OpenAPI at all, is an error.
package struct OpenAPIImporter {
    /// Told as the import goes: a large document (Stripe, Kubernetes) takes seconds, and a person
    /// at a terminal should see it move. Called on the importing thread, once per operation.
    private let progress: ((ImportProgress) -> Void)?
    /// The folder `$ref`ed files must be in; nil for the document's own folder.
    package var referenceRoot: URL?

    package init(referenceRoot: URL? = nil, progress: ((ImportProgress) -> Void)? = nil) {
        self.referenceRoot = referenceRoot
        self.progress = progress
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    package func importFile(_ url: URL) throws(ImportError) -> ImportedSet {
        progress?(ImportProgress(file: url.lastPathComponent))
        let document = try Self.open(url, referenceRoot: referenceRoot)
        // A document `mockapi export openapi` wrote carries its contracts as they were: read those.
        if let exported = ExportedSetReader.read(document.root.value, file: url.lastPathComponent) { return exported }
        let imported = importDocument(document, file: url.lastPathComponent)
        // Every operation left out: say why the first one was, as an error.
        if imported.contracts.isEmpty, imported.skipped > 0, let first = imported.warnings.first {
            throw ImportError("\(url.path): no operation could be imported; \(first.drop { $0 != ":" }.dropFirst(2))")
        }
        return imported
    }

    /// The entry file as an OpenAPI 3 document: checked for its version, a Swagger 2.0 one converted.
    static func open(_ url: URL, referenceRoot: URL? = nil) throws(ImportError) -> OpenAPIDocument {
        let document = try OpenAPIDocument(entry: url, referenceRoot: referenceRoot)
        let file = url.path
        guard document.root.isObject else {
            throw ImportError("\(file): not an OpenAPI document (the top level is not a mapping with an \"openapi\" key)")
        }
        if let swagger = document.root["swagger"] {
            guard swagger.string == "2.0" else { throw ImportError("\(file): #/swagger: version \(swagger.value.serialized) is not supported (2.0, 3.0, 3.1 and 3.2 are)") }
            return OpenAPIDocument(converted: SwaggerConverter.convert(document.root.value), from: url, referenceRoot: referenceRoot)
        }
        guard let version = document.root["openapi"]?.string ?? document.root["openapi"]?.number.map({ "\($0)" }) else {
            throw ImportError("\(file): #: missing key \"openapi\" (is this an OpenAPI 3 document?)")
        }
        guard version.hasPrefix("3.") else {
            throw ImportError("\(file): #/openapi: version \"\(version)\" is not supported (2.0, 3.0, 3.1 and 3.2 are)")
        }
        return document
    }

    func importDocument(_ document: OpenAPIDocument, file: String) -> ImportedSet {
        var result = ImportedSet()
        var names: Set<String> = []
        var tally = ImportTally()
        var routes = RouteClaims()
        var told = ImportProgress(file: file, phase: .translating, total: progress == nil ? 0 : Self.operationCount(document))
        for (pathKey, written) in document.root["paths"]?.members ?? [] {
            guard let pathItem = document.resolve(written) else {
                tally.skip("unresolvable path item")
                result.skipped += 1
                continue
            }
            for method in Self.methods {
                guard let writtenOperation = pathItem[method], let operation = document.resolve(writtenOperation) else { continue }
                var translator = OperationTranslator(document: document, pathKey: pathKey, pathItem: pathItem, method: method, operation: operation)
                let prefix = "\(file): \(method.uppercased()) \(pathKey): "
                do {
                    let (draft, fixtures) = try translator.translate(names: &names)
                    if let (owner, dropsMatch) = try routes.claim(draft), let index = result.contracts.firstIndex(where: { $0.name == owner }) {
                        // Another operation's route: its requests are answered by that contract, loosened to take them.
                        result.contracts[index].loosen(toTake: draft, dropsMatch: dropsMatch)
                        translator.warn(
                            "same route", at: operation,
                            "answers the same requests as contract \"\(owner)\": merged into it (\(owner) takes its keys too, and answers with its own responses)")
                    } else {
                        result.contracts.append(draft)
                        result.fixtures += fixtures
                    }
                } catch {
                    translator.warn(error.reason, at: operation, "\(error.message); operation skipped")
                    tally.skip(error.reason)
                    result.skipped += 1
                }
                for warning in translator.warnings {
                    tally.warn(warning.reason)
                    result.warnings.append("\(prefix)\(warning.location): \(warning.message)")
                }
                if let progress {
                    told.operations += 1
                    told.warnings = result.warnings.count
                    progress(told)
                }
            }
        }
        for warning in document.warnings {
            tally.warn("unresolvable $ref")
            result.warnings.append("\(file): \(warning)")
        }
        if let summary = tally.summary { result.warnings.append("\(file): \(summary)") }
        return result
    }
}

extension OpenAPIImporter {
    /// The operations the document names, counted before any is translated (for "312 of 1068").
    /// Path items behind a `$ref` are not followed (that warns, once, during the import itself),
    /// so the count can fall short: the progress line never says more than it has read.
    static func operationCount(_ document: OpenAPIDocument) -> Int {
        (document.root["paths"]?.members ?? []).reduce(0) { count, path in
            count + methods.filter { path.node[$0] != nil }.count
        }
    }
}

/// Where an import is: reading the document, translating its operations, or writing the set.
package struct ImportProgress: Sendable, Equatable {
    package enum Phase: Sendable, Equatable { case reading, translating, writing }

    /// The document's file name.
    package var file: String
    package var phase: Phase = .reading
    /// Operations translated so far, of `total` (0 when not known yet).
    package var operations = 0
    package var total = 0
    /// Warnings so far.
    package var warnings = 0

    package init(file: String, phase: Phase = .reading, operations: Int = 0, total: Int = 0, warnings: Int = 0) {
        self.file = file
        self.phase = phase
        self.operations = operations
        self.total = total
        self.warnings = warnings
    }
}

/// Skipped operations and warnings counted by reason, for the import's last warning line.
struct ImportTally {
    private(set) var skipped: [String: Int] = [:]
    private(set) var warnings: [String: Int] = [:]

    mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }
    mutating func warn(_ reason: String) { warnings[reason, default: 0] += 1 }

    /// `2 operations skipped (1 deepObject query, 1 method); 5 warnings (3 cookie, 2 optional body)`; nil when nothing to say.
    var summary: String? {
        let skips = skipped.values.reduce(0, +)
        // A skip is also one of the warnings; count the rest.
        var others = warnings
        for (reason, count) in skipped { others[reason] = (others[reason] ?? 0) - count }
        others = others.filter { $0.value > 0 }
        let rest = others.values.reduce(0, +)
        guard skips + rest > 0 else { return nil }
        func list(_ counts: [String: Int]) -> String {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        var parts: [String] = []
        if skips > 0 { parts.append("\(skips) operation\(skips == 1 ? "" : "s") skipped (\(list(skipped)))") }
        if rest > 0 { parts.append("\(rest) warning\(rest == 1 ? "" : "s") (\(list(others)))") }
        return "in all, " + parts.joined(separator: "; ")
    }
}
