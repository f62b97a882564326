/// Whether bytes are certainly a document `JSONParser.parse` takes, decided in one pass that
/// builds nothing: a fixture is only checked at load time, and the tree `parse` built for each
/// was thrown away (1.4 M of a bundled start's 12.6 M instructions).
///
/// `true` only where the answer is sure. Everything it does not decide answers `false`, and the
/// caller runs the parser (`JSONParser.check`), which takes the document or says exactly why
/// not: every error, object keys that are escaped or not ASCII (the parser compares keys as
/// `String`s, so `é` and `e\u0301` are one key), objects of more than `maximumKeys` keys,
/// nesting deeper than `maximumDepth`, numbers that may lie past a `Double`'s range.
enum JSONScan {
    static let maximumDepth = 64
    static let maximumKeys = 64

    static func isCertainlyValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scan = Scanner(bytes)
        return scan.document()
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// One entry per open container: an object's first key in `keys`, or -1 for an array.
        var open: [Int] = []
        /// The open objects' keys so far, as (start, count) pairs of offsets into `bytes`.
        var keys: [Int] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }
        var current: UInt8 { bytes[position] }

        mutating func document() -> Bool {
            skipWhitespace()
            guard value() else { return false }
            while true {
                skipWhitespace()
                guard let container = open.last else { return atEnd }
                guard !atEnd else { return false }
                let byte = current
                position += 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace()
                    if container >= 0 {
                        guard key(from: container) else { return false }
                    }
                    guard value() else { return false }
                } else if byte == (container >= 0 ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if container >= 0 { keys.removeLast(keys.count - container) }
                    open.removeLast()
                } else {
                    return false
                }
            }
        }

        /// One value; a container is opened, and its first member read when it has one.
        mutating func value() -> Bool {
            guard !atEnd else { return false }
            switch current {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < JSONScan.maximumDepth else { return false }
                let isObject = current == UInt8(ascii: "{")
                position += 1
                skipWhitespace()
                if !atEnd, current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    return true
                }
                open.append(isObject ? keys.count : -1)
                if isObject, !key(from: keys.count) { return false }
                return value()
            case UInt8(ascii: "\""):
                return string(isKey: false)
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        /// A key, its colon and the whitespace after: plain ASCII, and none the object has had.
        mutating func key(from first: Int) -> Bool {
            guard !atEnd, current == UInt8(ascii: "\""), (keys.count - first) / 2 < JSONScan.maximumKeys else { return false }
            let start = position + 1
            guard string(isKey: true) else { return false }
            let count = position - 1 - start
            var other = first
            while other < keys.count {
                if keys[other + 1] == count, FrozenTrie.equal(bytes.baseAddress! + keys[other], bytes.baseAddress! + start, count: count) {
                    return false // the parser's "duplicate key" error
                }
                other += 2
            }
            keys.append(start)
            keys.append(count)
            skipWhitespace()
            guard !atEnd, current == UInt8(ascii: ":") else { return false }
            position += 1
            skipWhitespace()
            return true
        }

        /// A string from its opening quote past its closing one: no control byte, escapes the
        /// parser decodes, well-formed UTF-8 (Unicode's Table 3-7, as `String(validating:)`).
        mutating func string(isKey: Bool) -> Bool {
            position += 1
            while !atEnd {
                let byte = current
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return true
                }
                if byte < 0x20 { return false }
                if byte == UInt8(ascii: "\\") {
                    guard !isKey, escape() else { return false }
                } else if byte >= 0x80 {
                    guard !isKey, utf8Sequence() else { return false }
                } else {
                    position += 1
                }
            }
            return false
        }

        mutating func escape() -> Bool {
            position += 1
            guard !atEnd else { return false }
            let byte = current
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return true
            case UInt8(ascii: "u"):
                guard let code = hex4() else { return false }
                if (0xDC00..<0xE000).contains(code) { return false }
                guard (0xD800..<0xDC00).contains(code) else { return true }
                guard position + 2 <= bytes.count, current == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return false }
                position += 2
                guard let low = hex4() else { return false }
                return (0xDC00..<0xE000).contains(low)
            default:
                return false
            }
        }

        mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = current
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// One multi-byte UTF-8 sequence, its lead byte at `position`: the ranges of Unicode's
        /// Table 3-7 (no overlong form, no surrogate, nothing past U+10FFFF).
        mutating func utf8Sequence() -> Bool {
            let lead = current
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: return false
            }
            guard position + count < bytes.count else { return false }
            for offset in 1...count {
                let byte = bytes[position + offset]
                guard byte >= (offset == 1 ? low : 0x80), byte <= (offset == 1 ? high : 0xBF) else { return false }
            }
            position += count + 1
            return true
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
            position += count
            return true
        }

        /// The parser's grammar; sure of the value's range only where a `Double` surely holds it:
        /// below 10^308 (digits before the point plus a positive exponent of at most 4 digits),
        /// or a negative exponent, which makes it smaller.
        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { position += 1 }
            guard !atEnd, isDigit(current) else { return false }
            let integerStart = position
            if current == UInt8(ascii: "0") {
                position += 1
                if !atEnd, isDigit(current) { return false }
            } else {
                while !atEnd, isDigit(current) { position += 1 }
            }
            let integerDigits = position - integerStart
            if !atEnd, current == UInt8(ascii: ".") {
                position += 1
                guard !atEnd, isDigit(current) else { return false }
                while !atEnd, isDigit(current) { position += 1 }
            }
            var exponent = 0
            if !atEnd, current | 0x20 == UInt8(ascii: "e") {
                position += 1
                var negative = false
                if !atEnd, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                    negative = current == UInt8(ascii: "-")
                    position += 1
                }
                let digitsStart = position
                while !atEnd, isDigit(current) {
                    exponent = exponent &* 10 &+ Int(current - UInt8(ascii: "0"))
                    position += 1
                }
                guard position > digitsStart, position - digitsStart <= 4 else { return false }
                if negative { exponent = 0 } // smaller: a Double holds it, if only as zero
            }
            return integerDigits + exponent <= 308
        }

        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

        mutating func skipWhitespace() {
            while !atEnd {
                switch current {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
    }
}

extension JSONParser {
    /// Throws what `parse` would, without building the values of a document the scan is sure
    /// of (`JSONScan`): for checking a file that is served as it is.
    package static func check(_ bytes: [UInt8]) throws(Failure) {
        if bytes.withUnsafeBufferPointer(JSONScan.isCertainlyValid) { return }
        _ = try parse(bytes)
    }
}
