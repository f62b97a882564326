package import Foundation
package import MockAPICore

/// `mockapi import har`: contracts from a recorded session (HAR 1.2).
///
/// Entries that can be replayed are handed to `TrafficInference`, which `mockapi record` uses too.
package struct HARImporter {
    /// Which request values are credentials (`--redact-key` adds to the standard ones).
    package var credentials: CredentialKeys

    package init(credentials: CredentialKeys = .standard) {
        self.credentials = credentials
    }

    package func importFile(_ url: URL) throws(ImportError) -> ImportedSet {
        let archive = try HARArchive.load(url)
        return importArchive(archive, file: url.lastPathComponent)
    }

    /// Contract and folder names become file names (at most 255 bytes on most file systems, with a
    /// response name and an extension added): a path that would name them longer is not imported.
    static let maxNameLength = 120

    private static func nameProblem(method: RequestMethod, template: PathGeneralizer.Template) -> String? {
        let name = Naming.snakeCase(([method.rawValue] + template.words).joined(separator: "_"))
        let folder = Naming.folder(forPathSegments: template.literals)
        guard name.count > maxNameLength || folder.count > maxNameLength else { return nil }
        return "path \"\(abbreviated(template.path))\" (\(template.words.count) segments) would name a contract or folder "
            + "longer than \(maxNameLength) characters"
    }

    /// The first 80 characters of a long text, for a warning.
    static func abbreviated(_ text: String) -> String {
        text.count <= 80 ? text : text.prefix(80) + "… (\(text.utf8.count) bytes)"
    }

    func importArchive(_ archive: HARArchive, file: String) -> ImportedSet {
        var result = ImportedSet()
        var exchanges: [RecordedExchange] = []
        for (index, entry) in archive.log.entries.enumerated() {
            let location = "\(file): $.log.entries[\(index)]"
            guard let method = RequestMethod(rawValue: entry.request.method.uppercased()) else {
                result.warnings.append("\(location): method \(Self.abbreviated(entry.request.method)) has no contract equivalent; skipped")
                result.skipped += 1
                continue
            }
            guard entry.response.status >= 100 else {
                result.warnings.append("\(location): \(entry.request.method) \(Self.abbreviated(entry.request.url)) got no answer (status \(entry.response.status)); skipped")
                result.skipped += 1
                continue
            }
            guard entry.response.status <= 599 else {
                result.warnings.append("\(location): status \(entry.response.status) is not an HTTP status (100-599); skipped")
                result.skipped += 1
                continue
            }
            guard let components = URLComponents(string: entry.request.url) else {
                result.warnings.append("\(location): url \"\(Self.abbreviated(entry.request.url))\" cannot be parsed; skipped")
                result.skipped += 1
                continue
            }
            if let tooLong = Self.nameProblem(method: method, template: PathGeneralizer.template(forPath: components.path)) {
                result.warnings.append("\(location): \(tooLong); skipped")
                result.skipped += 1
                continue
            }
            exchanges.append(entry.exchange)
        }
        let inferred = TrafficInference(source: file, credentials: credentials).infer(exchanges)
        result.contracts = inferred.contracts
        result.fixtures = inferred.fixtures
        result.warnings += inferred.warnings
        return result
    }
}
