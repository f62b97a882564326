/// Writes a journal record as bytes: integers as 8 unaligned bytes, byte strings as their length
/// then their bytes, a missing string as length -1. Without a base address it only measures, so
/// the same encoding code sizes a record and then writes it.
struct RecordWriter {
    private let base: UnsafeMutableRawPointer?
    private(set) var size = 0

    /// A writer that only counts bytes.
    static var measuring: RecordWriter { RecordWriter(base: nil) }

    init(base: UnsafeMutableRawPointer?) {
        self.base = base
    }

    mutating func int(_ value: Int) {
        base?.storeBytes(of: value, toByteOffset: size, as: Int.self)
        size += MemoryLayout<Int>.size
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        int(bytes.count)
        if let base, let source = bytes.baseAddress { (base + size).copyMemory(from: source, byteCount: bytes.count) }
        size += bytes.count
    }

    mutating func string(_ text: String) {
        guard base != nil else {
            size += MemoryLayout<Int>.size + text.utf8.count // measuring: no need to touch the bytes
            return
        }
        if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { bytes($0) } // a bridged string: copy it contiguous first
        }
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { int(-1) }
    }
}

/// Reads what `RecordWriter` wrote, in the same order.
struct RecordReader {
    private let record: UnsafeRawBufferPointer
    private var offset = 0

    init(_ record: UnsafeRawBufferPointer) {
        self.record = record
    }

    mutating func int() -> Int {
        defer { offset += MemoryLayout<Int>.size }
        return record.loadUnaligned(fromByteOffset: offset, as: Int.self)
    }

    mutating func bytes() -> UnsafeRawBufferPointer {
        let count = int()
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: record[offset..<(offset + count)])
    }

    mutating func string() -> String {
        String(decoding: bytes(), as: UTF8.self)
    }

    mutating func optionalString() -> String? {
        let count = record.loadUnaligned(fromByteOffset: offset, as: Int.self)
        if count < 0 {
            offset += MemoryLayout<Int>.size
            return nil
        }
        return string()
    }
}
