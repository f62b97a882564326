import Testing

@testable import MockAPICore

struct QueryStringTests {
    private func arguments(_ query: String) -> [String] {
        Array(query.utf8).withUnsafeBytes { QueryString.arguments($0) }.map { "\($0.name)=\($0.value ?? "nil")" }
    }

    @Test func splitsDecodesAndKeepsKeysWithoutValues() {
        #expect(arguments("a=1&b&c=x+y%2Fz&d=e=f") == ["a=1", "b=nil", "c=x y/z", "d=e=f"])
    }

    @Test func emptyPiecesAreEmptyKeysButATrailingAmpersandIsNothing() {
        #expect(arguments("a&&b&") == ["a=nil", "=nil", "b=nil"])
        #expect(arguments("") == [])
    }

    @Test func encodedNULStaysInTheValueAndBadEscapesStayLiteral() {
        #expect(Array(QueryString.arguments(UnsafeRawBufferPointer(start: nil, count: 0))).isEmpty)
        let decoded = Array("k=a%00b&p=%zz%4".utf8).withUnsafeBytes { QueryString.arguments($0) }
        #expect(decoded[0].value == "a\u{0}b")
        #expect(decoded[1].value == "%zz%4")
    }
}
