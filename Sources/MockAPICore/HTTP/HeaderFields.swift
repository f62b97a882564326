/// Request headers as they arrived, packed in one buffer (`name NUL value NUL …`).
///
/// Copying headers off a connection is then one append per header instead of two Strings,
/// and Strings are made only for the headers someone reads: validation looks up a few, the
/// journal renders them all only when it is read.
public struct HeaderFields: Sendable, Equatable, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []

    public init() {}

    public init(arrayLiteral elements: (String, String)...) {
        for (name, value) in elements { append(name: name, value: value) }
    }

    /// Headers from bytes `withPackedBytes` handed out.
    public init(packed: UnsafeRawBufferPointer) {
        bytes = Array(packed)
    }

    public var isEmpty: Bool { bytes.isEmpty }

    /// The packed buffer, for storing it elsewhere as one copy.
    public func withPackedBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    public mutating func append(name: String, value: String) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(0)
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// Appends from C strings, as libmicrohttpd hands them over.
    public mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        // One allocation for a typical request's headers instead of a regrowth per header.
        if bytes.isEmpty { bytes.reserveCapacity(128) }
        bytes.append(contentsOf: name)
        bytes.append(0)
        bytes.append(contentsOf: value)
        bytes.append(0)
    }

    /// The first value of a header, its name matched ASCII case-insensitively.
    public func value(for name: String) -> String? {
        var wanted = name
        return wanted.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { buffer -> String? in
                var offset = 0
                while offset < buffer.count {
                    var nameEnd = offset
                    while buffer[nameEnd] != 0 { nameEnd += 1 }
                    var valueEnd = nameEnd + 1
                    while buffer[valueEnd] != 0 { valueEnd += 1 }
                    if nameEnd - offset == wanted.count {
                        var same = true
                        for index in 0..<wanted.count where buffer[offset + index] | 0x20 != wanted[index] | 0x20 {
                            same = false
                            break
                        }
                        if same { return String(decoding: UnsafeBufferPointer(rebasing: buffer[(nameEnd + 1)..<valueEnd]), as: UTF8.self) }
                    }
                    offset = valueEnd + 1
                }
                return nil
            }
        }
    }

    /// Every header as Strings, in arrival order.
    public var pairs: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var offset = 0
        while offset < bytes.count {
            let nameEnd = bytes[offset...].firstIndex(of: 0)!
            let valueEnd = bytes[(nameEnd + 1)...].firstIndex(of: 0)!
            result.append((String(decoding: bytes[offset..<nameEnd], as: UTF8.self),
                           String(decoding: bytes[(nameEnd + 1)..<valueEnd], as: UTF8.self)))
            offset = valueEnd + 1
        }
        return result
    }
}
