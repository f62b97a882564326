/// How a request says its body ends, from `Content-Length` and `Transfer-Encoding`, and the
/// framings mockapi refuses at once rather than guess at (RFC 9112 §6).
package enum BodyFraming: Equatable, Sendable {
    case none
    case length(Int)
    /// Digits, but more than `Int.max`: certainly over any limit.
    case lengthTooLarge
    case chunked
    /// Two `Content-Length` values that differ: which one frames the body is unknowable (400).
    case conflictingLengths
    /// Anything but `chunked`: libmicrohttpd would read until the client closes (501).
    case unsupportedEncoding(String)

    /// One pass per header name over the packed headers; no String unless a refusal needs one.
    /// Borrowed: an initializer owns its arguments otherwise, a retain and release per request.
    package init(headers: borrowing HeaderFields) {
        var encoding: UnsafeRawBufferPointer?
        headers.forEachValue(of: "Transfer-Encoding") { value in
            encoding = value
            return false
        }
        if let encoding {
            let chunked = Array("chunked".utf8)
            let isChunked = encoding.count == chunked.count && zip(encoding, chunked).allSatisfy { $0 | 0x20 == $1 }
            self = isChunked ? .chunked : .unsupportedEncoding(String(decoding: encoding, as: UTF8.self))
            return
        }
        var framing = BodyFraming.none
        headers.forEachValue(of: "Content-Length") { value in
            // Malformed values are libmicrohttpd's to refuse (it answers 400 before we are called).
            guard let length = Self.decimal(value) else { return true }
            switch framing {
            case .none: framing = length
            case length: break
            default: framing = .conflictingLengths
            }
            return framing != .conflictingLengths
        }
        self = framing
    }

    private static func decimal(_ bytes: UnsafeRawBufferPointer) -> BodyFraming? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        var overflowed = false
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if overflowed { continue }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 { overflowed = true } else { value = sum }
        }
        return overflowed ? .lengthTooLarge : .length(value)
    }
}
