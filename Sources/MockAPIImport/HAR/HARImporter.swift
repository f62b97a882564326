import Foundation
import MockAPICore

/// `mockapi import har`: contracts from a recorded session (HAR 1.2).
///
/// Entries are grouped by method and path template; each group becomes one contract whose
/// expectations are what every recorded request had in common (a query key present in every
/// entry is required, an integer in every entry is `int`), and whose responses are the distinct
/// recorded answers, written as fixtures.
public struct HARImporter {
    public init() {}

    public func importFile(_ url: URL) throws(ImportError) -> ImportedSet {
        let archive = try HARArchive.load(url)
        return importArchive(archive, file: url.lastPathComponent)
    }

    /// Entries of one method and template, in recorded order.
    struct Group {
        var method: HTTPMethod
        var template: PathGeneralizer.Template
        var entries: [(index: Int, entry: HARArchive.Entry)] = []
    }

    func importArchive(_ archive: HARArchive, file: String) -> ImportedSet {
        var result = ImportedSet()
        var groups: [Group] = []
        for (index, entry) in archive.log.entries.enumerated() {
            let location = "\(file): $.log.entries[\(index)]"
            guard let method = HTTPMethod(rawValue: entry.request.method.uppercased()) else {
                result.warnings.append("\(location): method \(entry.request.method) has no contract equivalent; skipped")
                result.skipped += 1
                continue
            }
            guard entry.response.status >= 100 else {
                result.warnings.append("\(location): \(entry.request.method) \(entry.request.url) got no answer (status \(entry.response.status)); skipped")
                result.skipped += 1
                continue
            }
            guard let components = URLComponents(string: entry.request.url) else {
                result.warnings.append("\(location): url \"\(entry.request.url)\" cannot be parsed; skipped")
                result.skipped += 1
                continue
            }
            let template = PathGeneralizer.template(forPath: components.path)
            if let position = groups.firstIndex(where: { $0.method == method && $0.template == template }) {
                groups[position].entries.append((index, entry))
            } else {
                groups.append(Group(method: method, template: template, entries: [(index, entry)]))
            }
        }
        var names: Set<String> = []
        for group in groups {
            var draft = ContractDraft(name: Naming.unique(Naming.snakeCase(([group.method.rawValue] + group.template.words).joined(separator: "_")), in: &names),
                                      folder: Naming.folder(forPathSegments: group.template.literals),
                                      method: group.method, path: group.template.path)
            let entries = group.entries.map(\.entry)
            let location = "\(file): \(group.method.rawValue) \(group.template.path)"
            draft.query = Self.queryExpectations(entries)
            if group.method != .GET, group.method != .HEAD {
                var warnings: [String] = []
                (draft.json, draft.multipart) = Self.bodyExpectations(entries, warnings: &warnings)
                result.warnings += warnings.map { "\(location): \($0)" }
            }
            let (responses, fixtures) = Self.responses(for: entries, folder: draft.folder, contract: draft.name)
            draft.responses = responses
            result.contracts.append(draft)
            result.fixtures += fixtures
        }
        return result
    }
}
