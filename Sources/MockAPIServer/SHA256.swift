import CMicroHTTPD

/// Streaming SHA-256 (nettle's, which ships with libmicrohttpd's dependencies).
package struct SHA256: Sendable {
    private var context = sha256_ctx()

    package init() { nettle_sha256_init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The digest as lowercase hex; the hasher starts over afterwards.
    package mutating func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        nettle_sha256_digest(&context, 32, &digest)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hex digest of some bytes in one call.
    package static func hex(of bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
