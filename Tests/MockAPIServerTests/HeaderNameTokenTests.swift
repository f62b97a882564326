import CMicroHTTPDShims
import MockAPITestSupport
import Testing

/// The C header copy refuses a name with a byte outside RFC 9110's `tchar`, checking eight bytes
/// at a time where it can; here it is held to the grammar itself over random names of every
/// length up to 40, most made of the letters, digits and '-' that take the fast path, each
/// byte value from 0 to 255 planted at every kind of position.
@Suite struct HeaderNameTokenTests {
    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
    static func isTchar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static let common = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-".utf8)

    @Test func aNameIsATokenExactlyWhenEveryByteIsATchar() {
        var random = SplitMix64(seed: 9110)
        var refused = 0
        for round in 0..<20_000 {
            let length = Int(random.next() % 41)
            var name = (0..<length).map { _ in Self.common[Int(random.next() % UInt64(Self.common.count))] }
            // Most names get one byte of any value somewhere (some none: the fast path whole).
            if length > 0, round % 4 != 0 { name[Int(random.next() % UInt64(length))] = UInt8(truncatingIfNeeded: random.next()) }
            let expected = name.allSatisfy(Self.isTchar)
            let found = name.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { CMicroHTTPDShims_is_token($0.baseAddress, length) }
            }
            #expect(found == expected, "\(name)")
            if !expected { refused += 1 }
        }
        #expect(refused > 5_000 && refused < 15_000, "\(refused)")
    }

    @Test func everyByteValueIsJudgedInEachPartOfALongName() {
        for byte in UInt8.min...UInt8.max {
            for position in [0, 7, 8, 12, 15, 16, 19] {
                var name = Array("Accept-Language-Xy".utf8) + [UInt8(ascii: "z"), UInt8(ascii: "z")]
                name[position] = byte
                let found = name.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { CMicroHTTPDShims_is_token($0.baseAddress, name.count) }
                }
                #expect(found == Self.isTchar(byte), "byte \(byte) at \(position)")
            }
        }
    }
}
