/// Writes a journal record as bytes: integers as 8 unaligned bytes, byte strings as their length
/// then their bytes, a missing string as length -1. `size(of:)` says how many bytes a string takes,
/// so a record is sized before it is written without writing it twice.
struct RecordWriter {
    private let base: UnsafeMutableRawPointer
    private(set) var size = 0

    static let intSize = MemoryLayout<Int>.size

    init(base: UnsafeMutableRawPointer) {
        self.base = base
    }

    /// The bytes `string` writes for `text` (`optionalString`, when nil: a length only).
    static func size(of text: String?) -> Int {
        intSize + (text?.utf8.count ?? 0)
    }

    @inline(__always)
    mutating func int(_ value: Int) {
        base.storeBytes(of: value, toByteOffset: size, as: Int.self)
        size += MemoryLayout<Int>.size
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        int(bytes.count)
        if let source = bytes.baseAddress { (base + size).copyMemory(from: source, byteCount: bytes.count) }
        size += bytes.count
    }

    mutating func string(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { bytes($0) } // a bridged string: copy it contiguous first
        }
    }

    /// Bytes written as `optionalString` writes a String, so they read back as one.
    mutating func optionalBytes(_ bytes: UnsafeRawBufferPointer?) {
        if let bytes { self.bytes(bytes) } else { int(-1) }
    }

    /// The bytes `optionalBytes` writes.
    static func size(of bytes: UnsafeRawBufferPointer?) -> Int {
        intSize + (bytes?.count ?? 0)
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
