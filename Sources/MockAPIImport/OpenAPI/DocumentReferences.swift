import Foundation

/// The files an OpenAPI document is made of: itself and every file its relative `$ref`s reach,
/// directly or through other files, so `serve --openapi --watch` follows a spec split across
/// files. Found by text (`$ref: ./x.yml#/y` in YAML, `"$ref": "x.json"` in JSON) rather than by
/// parsing, so a file that is being rewritten, or is broken, still names the files it reaches.
package enum DocumentReferences {
    /// `$ref`, a colon, and the reference up to its `#` fragment or closing quote.
    nonisolated(unsafe) private static let reference = /["']?\$ref["']?\s*:\s*["']?([^"'#\s,}]*)/

    /// Most files followed: a folder of thousands of specs is not watched file by file.
    package static let limit = 2_000

    /// Files larger than the importer reads are not read for references either.
    package static let maxFileBytes = 100_000_000

    /// `document` first, then every file reached, each once (standardised absolute paths). Only
    /// regular files under the document's folder are followed, as the importer reads only those:
    /// a reference to `/dev/zero` or a FIFO must not hang the watcher.
    package static func files(from document: String) -> [String] {
        let start = URL(fileURLWithPath: document).standardizedFileURL.path
        let folder = URL(fileURLWithPath: start).deletingLastPathComponent().resolvingSymlinksInPath().path
        let root = folder.hasSuffix("/") ? folder : folder + "/"
        var found = [start], seen: Set<String> = [start], next = 0
        while next < found.count, found.count < limit {
            let file = found[next]
            next += 1
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                attributes[.type] as? FileAttributeType == .typeRegular,
                ((attributes[.size] as? NSNumber)?.intValue ?? 0) <= maxFileBytes,
                let text = try? String(contentsOfFile: file, encoding: .utf8)
            else { continue }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            for match in text.matches(of: reference) {
                let target = String(match.1)
                guard !target.isEmpty, !target.contains("://") else { continue } // same file, or remote
                let path = URL(fileURLWithPath: target.removingPercentEncoding ?? target, relativeTo: folder).standardizedFileURL.path
                guard URL(fileURLWithPath: path).resolvingSymlinksInPath().path.hasPrefix(root) else { continue }
                if seen.insert(path).inserted, FileManager.default.fileExists(atPath: path) { found.append(path) }
            }
        }
        return found
    }
}
