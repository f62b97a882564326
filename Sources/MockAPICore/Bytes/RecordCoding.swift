/// Where a journal record's fields go, in the record's order: `RecordWriter` writes them,
/// `RecordSizer` counts the bytes the writer will take. One encoder drives both
/// (`RequestJournal.record`), so a record's size is what it writes by construction, not a second
/// hand-kept sum. Integers are 8 unaligned bytes, byte strings their length then their bytes, a
/// missing string length -1; `RecordReader` reads them back.
protocol RecordSink {
    mutating func int(_ value: Int)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer)
    /// Requirements with a default, so the sizer can count a String without reading its bytes.
    mutating func string(_ text: String)
    mutating func optionalString(_ text: String?)
}

extension RecordSink {
    @inline(__always)
    mutating func string(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { bytes($0) } // a bridged string: copy it contiguous first
        }
    }

    /// Bytes written as `optionalString` writes a String, so they read back as one.
    @inline(__always)
    mutating func optionalBytes(_ bytes: UnsafeRawBufferPointer?) {
        if let bytes { self.bytes(bytes) } else { int(-1) }
    }

    @inline(__always)
    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { int(-1) }
    }
}

/// A field a record holds as its length and bytes: a String's UTF-8, bytes already at hand (the
/// server's request path has the method's bytes from libmicrohttpd, so it makes no String to
/// copy, retain and release), or headers' packed bytes.
protocol RecordBytes {
    func write<Sink: RecordSink>(to sink: inout Sink)
}

extension String: RecordBytes {
    @inline(__always)
    func write<Sink: RecordSink>(to sink: inout Sink) { sink.string(self) }
}

extension UnsafeRawBufferPointer: RecordBytes {
    @inline(__always)
    func write<Sink: RecordSink>(to sink: inout Sink) { sink.bytes(self) }
}

/// Headers as their packed bytes (`withPackedBytes`), which read back as a `HeaderFields`.
extension HeaderFields: RecordBytes {
    @inline(__always)
    func write<Sink: RecordSink>(to sink: inout Sink) { withPackedBytes { sink.bytes($0) } }
}

/// Counts the bytes a record takes, writing nothing.
struct RecordSizer: RecordSink {
    private(set) var size = 0

    // Wrapping sums: every count is of bytes already in memory, so they cannot overflow, and
    // each checked add was a test and a branch (about 30 of them a record).
    @inline(__always)
    mutating func int(_ value: Int) {
        size &+= MemoryLayout<Int>.size
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        size &+= MemoryLayout<Int>.size &+ bytes.count
    }

    @inline(__always)
    mutating func string(_ text: String) {
        size &+= MemoryLayout<Int>.size &+ text.utf8.count
    }

    @inline(__always)
    mutating func optionalString(_ text: String?) {
        size &+= MemoryLayout<Int>.size &+ (text?.utf8.count ?? 0)
    }
}

/// Writes a record's bytes from `base`, which holds the size `RecordSizer` counted.
struct RecordWriter: RecordSink {
    private let base: UnsafeMutableRawPointer
    private(set) var size = 0

    init(base: UnsafeMutableRawPointer) {
        self.base = base
    }

    // Wrapping, as the sizer's: the offsets stay within the size it counted.
    @inline(__always)
    mutating func int(_ value: Int) {
        base.storeBytes(of: value, toByteOffset: size, as: Int.self)
        size &+= MemoryLayout<Int>.size
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        int(bytes.count)
        if let source = bytes.baseAddress { (base + size).copyMemory(from: source, byteCount: bytes.count) }
        size &+= bytes.count
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
