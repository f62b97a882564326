import Testing

@testable import MockAPICore

/// The server copies each request's headers into the buffer its thread slot keeps: a copy
/// someone still holds must never be written over by a later request.
struct HeaderSpareStorageTests {
    /// Headers packed as the server's C copy writes them, through a spare slot.
    private func copied(_ fields: HeaderFields, slot: Int) -> HeaderFields {
        fields.withPackedBytes { packed in
            HeaderFields(capacity: 512, spareSlot: slot) { buffer in
                guard packed.count <= buffer.count else { return packed.count }
                buffer.copyMemory(from: packed)
                return packed.count
            }
        }
    }

    @Test func aKeptBufferStillHeldElsewhereIsNotWrittenOver() {
        let slot = 5
        let first = copied([("Authorization", "Bearer first"), ("Accept", "application/json")], slot: slot)
        let kept = first // what a journal reader or a deferred reply might still hold
        let second = copied([("Authorization", "Bearer second")], slot: slot)
        #expect(kept.fields == [HTTPField("Authorization", "Bearer first"), HTTPField("Accept", "application/json")])
        #expect(second.fields == [HTTPField("Authorization", "Bearer second")])
    }

    @Test func eachRequestSeesOnlyItsOwnHeadersInAReusedBuffer() {
        let slot = 6
        var expected: [[HTTPField]] = []
        var seen: [[HTTPField]] = []
        for (index, count) in [4, 1, 3, 0, 2].enumerated() {
            let fields = (0..<count).map { HTTPField("X-Request-\(index)", "value \($0)") }
            var built = HeaderFields()
            for field in fields { built.append(name: field.name, value: field.value) }
            let headers = copied(built, slot: slot)
            expected.append(fields)
            seen.append(headers.fields)
        }
        #expect(seen == expected)
    }

    @Test func headersLargerThanTheSpareGetTheirOwnBuffer() {
        let slot = 7
        _ = copied([("A", "b")], slot: slot)
        let long = String(repeating: "v", count: 2_000)
        let headers = copied([("X-Long", long), ("X-Other", "o")], slot: slot)
        #expect(headers.fields == [HTTPField("X-Long", long), HTTPField("X-Other", "o")])
    }
}
