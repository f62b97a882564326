import Testing

@testable import MockAPICore

struct JSONParserTests {
    @Test func parsesNestedDocumentKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.5, "x", null, true], "a": {"z": -3}}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == [1, .double(2.5), "x", nil, true])
        #expect(object["a"] == ["z": -3])
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\n\"b\" \u00e9 \ud83d\ude00""#) == .string("a\n\"b\" é 😀"))
    }

    @Test func reportsLineAndColumnOfTheError() {
        let text = "{\n  \"name\": \"x\",\n  \"request\": {\n    \"method\" \"GET\"\n  }\n}"
        #expect(throws: JSONParser.Failure(line: 4, column: 14, message: "unexpected '\"', expected ':' after key \"method\"")) {
            try JSONParser.parse(text)
        }
    }

    @Test func refusesTrailingCommasDuplicateKeysAndTrailingGarbage() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[1,]") }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("{} x") }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("01") }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
    }

    @Test func serializationRoundTrips() throws {
        let value: JSONValue = ["text": "quote \" and \n", "list": [1, true, nil], "empty": [:]]
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(try JSONParser.parse(value.prettySerialized) == value)
    }

    /// `1e400` read as infinity was written back as `null` (issue 30): refused, naming where.
    @Test func refusesANumberBeyondDoublesRangeNamingItsPath() {
        #expect(
            throws: JSONParser.Failure(line: 2, column: 29, message: "number 1e400 is beyond a 64-bit float's range (at $.items[1].price)")
        ) {
            try JSONParser.parse("{\"items\": [{\"price\": 1},\n  {\"name\": \"a,]}\", \"price\": 1e400}]}")
        }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("-1e400") }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a b": [1E+309]}"#) }
        let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a b": [0, 1E+309]}"#) }
        #expect(failure?.message.hasSuffix(#"(at $["a b"][1])"#) == true, "\(String(describing: failure))")
    }

    /// What is read is written back as it was read: the largest finite doubles, tiny ones, and
    /// integers beyond Int64 (kept as doubles), never `null`.
    @Test func numbersAtTheEdgesOfTheRangeRoundTripAsNumbers() throws {
        for text in ["1.7976931348623157e308", "-1.7976931348623157e308", "5e-324", "1e-400", "99999999999999999999"] {
            let value = try JSONParser.parse("[\(text)]")
            #expect(!value.serialized.contains("null"), "\(text) -> \(value.serialized)")
            #expect(try JSONParser.parse(value.serialized) == value, "\(text)")
        }
    }
}
