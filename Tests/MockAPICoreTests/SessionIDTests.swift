import MockAPICore
import Testing

/// Ids are 16 lowercase hex digits: every one `text` writes reads back, nothing else reads at all.
@Suite struct SessionIDTests {
    @Test func whatTextWritesReadsBack() {
        for value: UInt64 in [0, 1, 0xF, 0x10, 0xDEAD_BEEF, .max, .max - 1, 0x0123_4567_89AB_CDEF] + (0..<200).map({ _ in SessionID.make() }) {
            #expect(SessionID.value(SessionID.text(value)) == value)
        }
    }

    @Test(arguments: [
        "", "0", "0123456789abcde", "0123456789abcdef0", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcde/",
        "0123456789abcde:", "0123456789abcde`", "0123456789abcde@", " 123456789abcdef", "0123456789abcd\u{0}f", "0123456789abcdé",
    ])
    func anythingElseIsMalformed(_ text: String) {
        #expect(SessionID.value(text) == nil)
    }
}
