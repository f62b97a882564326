/// What a file's first bytes say it is: the magic numbers of the image, video and PDF types an
/// app uploads, for a multipart part whose contract asks that its bytes match its declared type
/// (`"checkBytes": true`).
package enum ContentSignature {
    /// How many leading bytes a part keeps for the check: enough for every signature below
    /// (an ISO base media file's brand is at bytes 8 to 11; WebP's tag at 8 to 11).
    package static let prefixLength = 16

    /// The media types whose bytes can be checked, each with the essences that mean it.
    package static let checkable: Set<String> = Set(aliases.keys)

    /// The declared type's canonical name (`image/jpg` is `image/jpeg`), when it can be checked.
    private static let aliases: [String: String] = [
        "image/png": "image/png",
        "image/jpeg": "image/jpeg", "image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg",
        "image/gif": "image/gif",
        "image/webp": "image/webp",
        "image/heic": "image/heic", "image/heif": "image/heic", "image/heic-sequence": "image/heic",
        "image/heif-sequence": "image/heic",
        "video/mp4": "video/mp4",
        "video/quicktime": "video/quicktime",
        "application/pdf": "application/pdf",
    ]

    /// The type `bytes` start as, or nil when they start as none of the checkable types.
    package static func sniff(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if heifBrands.contains(brand) { return "image/heic" }
            return brand == "qt  " ? "video/quicktime" : "video/mp4"
        }
        // A QuickTime file from before `ftyp`: its first atom is one of these.
        if bytes.count >= 8, ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(String(decoding: bytes[4..<8], as: UTF8.self)) {
            return "video/quicktime"
        }
        return nil
    }

    /// The brands an HEIF (HEIC) image's `ftyp` box names.
    private static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]

    /// Why `bytes` are not what `declared` (a media type essence) says, or nil when they are,
    /// or when `declared` is not a type whose bytes can be checked.
    package static func mismatch(declared: String, bytes: [UInt8], total: Int) -> String? {
        guard let wanted = aliases[declared] else { return nil }
        let seen = sniff(bytes)
        if seen == wanted { return nil }
        let says = "its Content-Type says \(declared), but its bytes"
        if let seen { return "\(says) are \(seen)" }
        if total == 0 { return "\(says) are none (an empty part)" }
        let start = bytes.prefix(8).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }.joined(separator: " ")
        return "\(says) start \(start), which is no type mockapi knows (png, jpeg, gif, webp, heic, mp4, quicktime, pdf)"
    }
}
