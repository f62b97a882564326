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

    private struct GroupKey: Hashable {
        var method: HTTPMethod
        var template: PathGeneralizer.Template
    }

    /// Contract and folder names become file names (at most 255 bytes on most file systems, with a
    /// response name and an extension added): a path that would name them longer is not imported.
    static let maxNameLength = 120

    private static func nameProblem(method: HTTPMethod, template: PathGeneralizer.Template) -> String? {
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
        var groups: [Group] = []
        var groupIndex: [GroupKey: Int] = [:]
        for (index, entry) in archive.log.entries.enumerated() {
            let location = "\(file): $.log.entries[\(index)]"
            guard let method = HTTPMethod(rawValue: entry.request.method.uppercased()) else {
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
            let template = PathGeneralizer.template(forPath: components.path)
            if let tooLong = Self.nameProblem(method: method, template: template) {
                result.warnings.append("\(location): \(tooLong); skipped")
                result.skipped += 1
                continue
            }
            let key = GroupKey(method: method, template: template)
            if let position = groupIndex[key] {
                groups[position].entries.append((index, entry))
            } else {
                groupIndex[key] = groups.count
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
