import Foundation
import MockAPICore
import OpenAPIKit

/// `mockapi import openapi`: one contract per operation of an OpenAPI 3.0/3.1/3.2 document.
///
/// An operation the contract format cannot express (a path segment mixing text and a parameter,
/// a deepObject query, a non-object JSON body, repeated file parts, TRACE) is left out with a
/// warning rather than imported wrong; a detail it can only loosen (a cookie, a form-encoded
/// body) is imported with a warning.
public struct OpenAPIImporter {
    public init() {}

    public func importFile(_ url: URL) throws(ImportError) -> ImportedSet {
        if let exported = try Self.exportedSet(url) { return exported }
        let document = try OpenAPIDocumentLoader.load(url)
        return importDocument(document, file: url.lastPathComponent)
    }

    func importDocument(_ document: OpenAPI.Document, file: String) -> ImportedSet {
        var result = ImportedSet()
        var names: Set<String> = []
        let reader = SchemaReader(components: document.components)
        for (path, item) in document.paths {
            guard let pathItem = try? document.components.lookup(item) else {
                result.warnings.append("\(file): \(path.rawValue): path item reference cannot be resolved; skipped")
                result.skipped += 1
                continue
            }
            for endpoint in pathItem.endpoints {
                var translator = OperationTranslator(document: document, reader: reader, path: path, pathItem: pathItem,
                                                     method: endpoint.method, operation: endpoint.operation)
                let location = "\(file): \(endpoint.method.rawValue.uppercased()) \(path.rawValue)"
                do {
                    let (draft, fixtures) = try translator.translate(names: &names)
                    result.contracts.append(draft)
                    result.fixtures += fixtures
                    result.warnings += translator.warnings.map { "\(location): \($0)" }
                } catch {
                    result.warnings += translator.warnings.map { "\(location): \($0)" }
                    result.warnings.append("\(location): \(error.reason); operation skipped")
                    result.skipped += 1
                }
            }
        }
        return result
    }
}

extension OpenAPIImporter {
    /// A document `mockapi export openapi` wrote carries its contracts as they were: read those.
    static func exportedSet(_ url: URL) throws(ImportError) -> ImportedSet? {
        let data = try InputFile.read(url, maxBytes: OpenAPIDocumentLoader.maxDocumentBytes, bound: "100 MB")
        let bytes = [UInt8](data)
        guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
              data.range(of: Data("\"\(OpenAPIExporter.setExtension)\"".utf8)) != nil,
              let document = try? JSONParser.parse(bytes) else { return nil }
        return ExportedSetReader.read(document, file: url.lastPathComponent)
    }
}

/// Why an operation cannot become a contract.
struct Unexpressible: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
