import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document, JSON or YAML, into OpenAPIKit's 3.1 model
/// (3.0 documents are converted), so the importer handles one model.
///
/// The document is bounded before it is decoded: at most `maxDocumentBytes`, aliases and
/// nesting as `YAMLShapeCheck` allows. Problems name the file, line and column (YAML) or JSON path.
enum OpenAPIDocumentLoader {
    /// Larger documents are refused before they are read.
    static let maxDocumentBytes = 100_000_000

    static func load(_ url: URL) throws(ImportError) -> OpenAPIKit.OpenAPI.Document {
        let file = url.path
        let data = try InputFile.read(url, maxBytes: maxDocumentBytes, bound: "100 MB")
        guard let read = String(data: data, encoding: .utf8) else { throw ImportError("\(file): not UTF-8 text") }
        let text = JSONSurrogateEscapes.unescaped(read)
        let parser: Parser
        let root: Node
        do {
            // The resolver YAMLDecoder uses: scalars stay text until a type asks for a number or a bool.
            parser = try Parser(yaml: text, resolver: Resolver.basic.appending(.merge))
            root = try parser.singleRoot() ?? Node("")
        } catch {
            throw ImportError(YAMLErrorDescription.describe(error, file: file, text: text))
        }
        return try withExtendedLifetime(parser) { () throws(ImportError) in
            do throws(YAMLShapeCheck.Problem) {
                try YAMLShapeCheck.check(root)
            } catch {
                throw ImportError(YAMLErrorDescription.describe(error, file: file))
            }
            return try decode(root, file: file)
        }
    }

    private static func decode(_ root: Node, file: String) throws(ImportError) -> OpenAPIKit.OpenAPI.Document {
        // Vendor extensions (`x-…`) are not imported; reading them decodes every extendable
        // object's whole subtree again as `AnyCodable`, a third of the decoding time.
        // (OpenAPIKit30's key is the same key.)
        let decoder = YAMLNodeDecoder(userInfo: [OpenAPIKit.VendorExtensionsConfiguration.enabledKey: false])
        guard case .mapping = root, let probe = try? decoder.decode(VersionProbe.self, from: root) else {
            throw ImportError("\(file): not an OpenAPI document (the top level is not a mapping with an \"openapi\" key)")
        }
        if let swagger = probe.swagger {
            throw ImportError("\(file): Swagger \(swagger) is not supported; convert it to OpenAPI 3 first")
        }
        guard let version = probe.openapi else { throw ImportError("\(file): $: missing key \"openapi\" (is this an OpenAPI 3 document?)") }
        do {
            if version.hasPrefix("3.0.") {
                return try decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: root).convert(to: .v3_1_0)
            }
            guard version.hasPrefix("3.1.") || version.hasPrefix("3.2.") else {
                throw ImportError("\(file): $.openapi: version \"\(version)\" is not supported (3.0, 3.1 and 3.2 are)")
            }
            return try decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: root)
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
}
