/// Request headers as they arrived, packed in one buffer: per header a 32-bit name length, a
/// 32-bit value length, then the name and value bytes.
///
/// The server fills it in one C call per request, a lookup skips headers by their lengths, and
/// Strings are made only for the headers someone reads: validation looks up a few, the journal
/// renders them all only when it is read.
public struct HeaderFields: Sendable, Equatable, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []
    private static let lengthsSize = 2 * MemoryLayout<UInt32>.size

    public init() {}

    public init(arrayLiteral elements: (String, String)...) {
        for (name, value) in elements { append(name: name, value: value) }
    }

    /// Headers from bytes in this layout, as `withPackedBytes` hands them out.
    public init(packed: UnsafeRawBufferPointer) {
        bytes = Array(packed)
    }

    /// Headers written straight into a new buffer by `fill`, which is given room for `capacity`
    /// bytes and returns how many the headers need; asked again with more room if they need more.
    public init(capacity: Int, fill: (UnsafeMutableRawBufferPointer) -> Int) {
        var room = capacity
        while true {
            var needed = 0
            let filled = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                needed = fill(UnsafeMutableRawBufferPointer(buffer))
                count = needed <= room ? needed : 0
            }
            if needed <= room {
                bytes = filled
                return
            }
            room = needed
        }
    }

    public var isEmpty: Bool { bytes.isEmpty }

    /// The packed buffer, for storing it elsewhere as one copy.
    public func withPackedBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    public mutating func append(name: String, value: String) {
        for length in [name.utf8.count, value.utf8.count] {
            withUnsafeBytes(of: UInt32(length)) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: value.utf8)
    }

    /// The first value of a header, its name matched ASCII case-insensitively.
    public func value(for name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            bytes.withUnsafeBytes { buffer -> String? in
                var found: String?
                forEachField(in: buffer) { fieldName, value in
                    guard fieldName.count == wanted.count else { return true }
                    for index in 0..<wanted.count where fieldName[index] | 0x20 != wanted[index] | 0x20 { return true }
                    found = String(decoding: value, as: UTF8.self)
                    return false
                }
                return found
            }
        }
    }

    /// Every header as Strings, in arrival order.
    public var pairs: [(name: String, value: String)] {
        bytes.withUnsafeBytes { buffer in
            var result: [(name: String, value: String)] = []
            forEachField(in: buffer) { name, value in
                result.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                return true
            }
            return result
        }
    }

    /// Calls `body` with each header's name and value bytes until it returns false.
    private func forEachField(in buffer: UnsafeRawBufferPointer,
                              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool) {
        var offset = 0
        while offset + Self.lengthsSize <= buffer.count {
            let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let nameStart = offset + Self.lengthsSize
            let valueStart = nameStart + nameLength
            offset = valueStart + valueLength
            let name = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<valueStart])
            if !body(name, UnsafeRawBufferPointer(rebasing: buffer[valueStart..<offset])) { return }
        }
    }
}
