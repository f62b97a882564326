import Foundation

extension HARArchive {
    /// Larger captures are refused before they are read.
    static let maxFileBytes = 1_000_000_000

    /// Reads and decodes a HAR file; errors name the file and the JSON path (`$.log.entries[3].request.url`).
    static func load(_ url: URL) throws(ImportError) -> HARArchive {
        let data = try InputFile.read(url, maxBytes: maxFileBytes, bound: "1 GB")
        do {
            return try JSONDecoder().decode(HARArchive.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            throw ImportError("\(url.path): not valid JSON: \(reason)")
        } catch let error as DecodingError {
            throw ImportError("\(url.path): \(describe(error))")
        } catch {
            throw ImportError("\(url.path): \(error.localizedDescription)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath)): missing key \"\(key.stringValue)\" (is this a HAR file?)"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
