import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document, JSON or YAML, into OpenAPIKit's 3.1 model
/// (3.0 documents are converted), so the importer handles one model.
enum OpenAPIDocumentLoader {
    static func load(_ url: URL) throws(ImportError) -> OpenAPIKit.OpenAPI.Document {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file) else { throw ImportError("\(file): cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw ImportError("\(file): not UTF-8 text") }
        let probe: VersionProbe
        do { probe = try decode(VersionProbe.self, from: text) } catch {
            throw ImportError("\(file): neither JSON nor YAML: \(Self.describe(error))")
        }
        if let swagger = probe.swagger {
            throw ImportError("\(file): Swagger \(swagger) is not supported; convert it to OpenAPI 3 first")
        }
        guard let version = probe.openapi else { throw ImportError("\(file): $: missing key \"openapi\" (is this an OpenAPI 3 document?)") }
        do {
            if version.hasPrefix("3.0.") {
                return try decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_0)
            }
            guard version.hasPrefix("3.1.") || version.hasPrefix("3.2.") else {
                throw ImportError("\(file): $.openapi: version \"\(version)\" is not supported (3.0, 3.1 and 3.2 are)")
            }
            return try decode(OpenAPIKit.OpenAPI.Document.self, from: text)
        } catch let error as ImportError {
            throw error
        } catch {
            let readable = OpenAPIKit.OpenAPI.Error(from: error)
            let path = readable.codingPathString
            throw ImportError("\(file): \(path.isEmpty ? "$" : "$" + path): \(readable.localizedDescription)")
        }
    }

    private struct VersionProbe: Decodable {
        var openapi: String?
        var swagger: String?
    }

    /// Yams for JSON too (JSON is YAML): it keeps keys in document order, which Foundation's
    /// JSONDecoder does not, and order decides part order, property order and fixture key order.
    private static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try YAMLDecoder().decode(type, from: text)
    }

    private static func describe(_ error: Error) -> String {
        if let yaml = error as? YamlError { return "\(yaml)" }
        if case DecodingError.dataCorrupted(let context) = error {
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        }
        return "\(error)"
    }
}
