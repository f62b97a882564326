import Foundation

/// Reads an import's input file, refusing what could hang or exhaust the import before reading:
/// anything but a regular file (a FIFO blocks for ever, `/dev/zero` never ends) and files over a bound.
enum InputFile {
    static func read(_ url: URL, maxBytes: Int, bound: String) throws(ImportError) -> Data {
        let file = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { throw ImportError("\(file): cannot be read") }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw ImportError("\(file): not a regular file") }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else { throw ImportError("\(file): \(size) bytes; files over \(maxBytes) bytes (\(bound)) are refused") }
        guard let data = FileManager.default.contents(atPath: file), data.count <= maxBytes else { throw ImportError("\(file): cannot be read") }
        return data
    }
}
