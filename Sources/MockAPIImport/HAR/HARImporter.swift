import Foundation
import MockAPICore

/// `mockapi import har`: contracts from a recorded session (HAR 1.2).
///
/// Entries that can be replayed are handed to `TrafficInference`, which `mockapi record` uses too.
public struct HARImporter {
    public init() {}

    public func importFile(_ url: URL) throws(ImportError) -> ImportedSet {
        let archive = try HARArchive.load(url)
        return importArchive(archive, file: url.lastPathComponent)
    }

    func importArchive(_ archive: HARArchive, file: String) -> ImportedSet {
        var result = ImportedSet()
        var exchanges: [RecordedExchange] = []
        for (index, entry) in archive.log.entries.enumerated() {
            let location = "\(file): $.log.entries[\(index)]"
            guard HTTPMethod(rawValue: entry.request.method.uppercased()) != nil else {
                result.warnings.append("\(location): method \(entry.request.method) has no contract equivalent; skipped")
                result.skipped += 1
                continue
            }
            guard entry.response.status >= 100 else {
                result.warnings.append("\(location): \(entry.request.method) \(entry.request.url) got no answer (status \(entry.response.status)); skipped")
                result.skipped += 1
                continue
            }
            guard URLComponents(string: entry.request.url) != nil else {
                result.warnings.append("\(location): url \"\(entry.request.url)\" cannot be parsed; skipped")
                result.skipped += 1
                continue
            }
            exchanges.append(entry.exchange)
        }
        let inferred = TrafficInference(source: file).infer(exchanges)
        result.contracts = inferred.contracts
        result.fixtures = inferred.fixtures
        result.warnings += inferred.warnings
        return result
    }
}
