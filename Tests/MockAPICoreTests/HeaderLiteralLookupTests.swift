import Testing

@testable import MockAPICore

/// `HeaderFields.value(of:)`, the request path's lookup by a literal name, answers as
/// `value(for:)` does: the first value, the name in any case, nil when absent.
struct HeaderLiteralLookupTests {
    @Test func aLiteralNameFindsTheFirstValueInAnyCase() {
        let headers: HeaderFields = [("Host", "x"), ("PREFER", "code=404"), ("prefer", "code=500"), ("Preferred", "no")]
        #expect(headers.value(of: "Prefer") == "code=404")
        #expect(headers.value(of: "Prefer") == headers.value(for: "prefer"))
        #expect(headers.value(of: "Prefe") == nil)
        #expect(HeaderFields().value(of: "Prefer") == nil)
        #expect(([("Prefer", "")] as HeaderFields).value(of: "Prefer") == "")
    }
}
